/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* suggest --diff and --output-dir: the suggestion as patches and unit files. */
#ifndef BTRFS_INO_SUGGEST_DIFF_H
#define BTRFS_INO_SUGGEST_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "btrfsino.h"
#include "suggestion.h"

struct suggest_diff;

/*
 * Collect the edits of every path (suggestion_edits()), to write as one
 * unified diff per file they change: the exports files, and the server
 * fstab of the suggest_config.  Returns NULL with errno set (out of memory).
 */
struct suggest_diff *suggest_diff_create(void);
void suggest_diff_destroy(struct suggest_diff *diff);

/*
 * Add the edits of @target's exports and server-fstab blocks: each exports
 * line replaced, each fstab line appended (or inserted before the first
 * line that mounts below it) and each stale fstab line
 * removed; the same edit from another path once.  Returns 0, or -1 with
 * the reason on stderr (two different changes of one line).
 */
int suggest_diff_add(struct suggest_diff *diff,
		     const struct suggest_config *config,
		     const struct bino_audit_target *target);

/*
 * Write the diffs to @out, exports files first, then the fstab; @block is
 * SUGGEST_ALL, or SUGGEST_EXPORTS or SUGGEST_SERVER_FSTAB for that file
 * only.  File names are absolute without their leading "/", so that
 * "patch -d / -p0" applies them; a diff of one file also applies with
 * "patch FILE".  Returns 0, or -1 with the reason on stderr.
 */
int suggest_diff_write(struct suggest_diff *diff, enum suggest_block block,
		       FILE *out);

/*
 * Write each mount unit of @target's mount-units block into the directory
 * @dir_fd (safe_dir_open() of @dir, which names it in messages) under the
 * name systemd requires, as the block prints it, mode 0644, through
 * safe_file; with @verbose each file written is named on stderr.  Returns
 * 0, or -1 with the reason on stderr.
 */
int suggest_write_units(const struct suggest_config *config,
			const struct bino_audit_target *target, int dir_fd,
			const char *dir, bool verbose);

#endif
