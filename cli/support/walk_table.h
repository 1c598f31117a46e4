/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* walk -o, --list, --raw, --pairs: the entries as a libsmartcols table. */
#ifndef BTRFS_INO_WALK_TABLE_H
#define BTRFS_INO_WALK_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "btrfsino.h"

enum walk_table_mode {
	WALK_TABLE_LIST, /* aligned columns: every row is held until the end */
	WALK_TABLE_RAW, /* space-separated, escaped: printed as it goes */
	WALK_TABLE_PAIRS, /* NAME="value": printed as it goes */
};

#define WALK_TABLE_MAX_COLUMNS 32

struct walk_table_options {
	enum walk_table_mode mode;
	bool noheadings;
	int cols[WALK_TABLE_MAX_COLUMNS]; /* n_cols 0: the default columns */
	size_t n_cols;
};

/*
 * Parse -o's comma-separated column names (case-insensitive; "+A,B" adds
 * to the defaults; an option parser).  Returns OPTIONS_GO_ON, or EXIT_USAGE
 * once it said the usage error (columns.h).
 */
int walk_table_parse_columns(const char *list, struct walk_table_options *opts);

/* Whether a chosen column needs bino_entry_stat(). */
bool walk_table_needs_stat(const struct walk_table_options *opts);

/* "  NAME  description" per column, for --help. */
void walk_table_columns_help(FILE *stream);

struct walk_table;

/* Returns NULL with errno set (out of memory).  Rows go to @stream. */
struct walk_table *walk_table_create(const struct walk_table_options *opts,
				     FILE *stream);
/*
 * Add @entry's row (@st: its stat fields, NULL if no column needs them),
 * printing the rows held when enough are.  Returns 0, or -1 with errno set
 * (ENOMEM, or why a write failed).
 */
int walk_table_add(struct walk_table *table, struct bino_entry *entry,
		   const struct bino_stat *st);
/* Print what is left; returns 0, or -1 with errno set. */
int walk_table_finish(struct walk_table *table);
void walk_table_destroy(struct walk_table *table);

#endif
