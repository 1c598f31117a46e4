/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The tree of exports, subvolumes and server mounts that opens the audit. */
#ifndef BTRFS_INO_AUDIT_TREE_H
#define BTRFS_INO_AUDIT_TREE_H

#include <stdbool.h>
#include <stdio.h>

#include "btrfsino.h"

struct audit_tree_options {
	bool ascii; /* "|-" and "`-" even in a UTF-8 locale (findmnt -A) */
	bool full; /* every snapshot, none collapsed into a count */
};

/*
 * Write the tree of every audited path of @audit to @stream: each export,
 * the btrfs subvolumes below it nested under the subvolume holding them
 * (lsblk's manner), snapshots with their source, the server mounts of each
 * subvolume with what clients see there, and on every node its collisions
 * (each colliding pair's entries counted once, at its higher-ID
 * subvolume, so that the nodes add up to the export's counts).  Box-drawing
 * characters when the locale's character set is UTF-8 and not
 * @opts->ascii.  Returns 0, or -1 with errno set.
 */
int audit_tree_print(FILE *stream, const struct bino_audit *audit,
		     const struct audit_tree_options *opts);

#endif
