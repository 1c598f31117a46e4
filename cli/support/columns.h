/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * -o LIST for every table of the CLI, read one way as findmnt and lsblk
 * read it: "A,B" chooses the columns, "+A,B" adds them to the defaults,
 * names are case-insensitive, and an unknown name is named in the usage
 * error.
 */
#ifndef BTRFS_INO_COLUMNS_H
#define BTRFS_INO_COLUMNS_H

#include <stddef.h>

struct column_list {
	const char *command; /* for the usage error: "audit", "walk" */
	const char *(*name_of)(int col); /* the name of column @col */
	int n_names; /* columns 0 to n_names - 1 exist */
	const int *defaults; /* what "+A" adds to */
	size_t n_defaults;
	int *cols; /* out: the chosen columns */
	size_t max; /* room in @cols */
	size_t n_cols; /* out */
};

/*
 * Parse @list into @cl->cols (an option parser).  Returns OPTIONS_GO_ON, or
 * EXIT_USAGE once the usage error is said on stderr: "unknown column 'BOGUS'", an empty list, or more
 * columns than @cl->max.
 */
int column_list_parse(const char *list, struct column_list *cl);

#endif
