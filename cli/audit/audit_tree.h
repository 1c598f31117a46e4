/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tree of exports, subvolumes and server mounts that opens the audit. */
#ifndef BTRFS_INO_AUDIT_TREE_H
#define BTRFS_INO_AUDIT_TREE_H

#include <stdbool.h>
#include <stdio.h>

#include "btrfsino.h"

/* How the table is printed, as findmnt's options choose. */
enum audit_tree_mode {
	AUDIT_TREE_TREE, /* default: a tree fitted to the terminal */
	AUDIT_TREE_LIST, /* --list: the same rows, no tree */
	AUDIT_TREE_RAW, /* --raw: space-separated, escaped, never truncated */
	AUDIT_TREE_PAIRS, /* --pairs: NAME="value" pairs */
};

struct audit_tree_options {
	bool ascii; /* "|-" and "`-" even in a UTF-8 locale (findmnt -A) */
	bool full; /* every snapshot, none collapsed into a count */
	bool noheadings;
	bool color;
	/* -J with -o or --list: the table as findmnt -J writes it, "audit": [] */
	bool json;
	enum audit_tree_mode mode;
	int cols[16]; /* from audit_tree_parse_columns(); n_cols 0: default */
	size_t n_cols;
	/* The table audited, to name every client of an export (NULL: the one applied). */
	const struct bino_exports *exports;
};

/*
 * Parse -o's comma-separated column names (case-insensitive; "+A,B" adds
 * to the defaults) into @opts (an option parser).  Returns OPTIONS_GO_ON,
 * or EXIT_USAGE once it said the usage error (columns.h).
 */
int audit_tree_parse_columns(const char *list, struct audit_tree_options *opts);

/* "  NAME  description" per column, for --help. */
void audit_tree_columns_help(FILE *stream);

/*
 * Write the tree of every audited path of @audit to @stream: each export,
 * the btrfs subvolumes below it nested under the subvolume holding them
 * (lsblk's manner), snapshots with their source, the server mounts of each
 * subvolume with what clients see there, and on every node its collisions
 * (each colliding pair's entries counted once, at its higher-ID
 * subvolume, so that the nodes add up to the export's counts), as one
 * libsmartcols table (a tree unless @opts->mode says otherwise).  Box-drawing
 * characters when the locale's character set is UTF-8 (the caller set
 * LC_CTYPE) and not @opts->ascii.  Returns 0, or -1 with errno set.
 */
int audit_tree_print(FILE *stream, const struct bino_audit *audit,
		     const struct audit_tree_options *opts);

#endif
