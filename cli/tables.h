/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The exports and mount tables audit and suggest read, with their diagnostics. */
#ifndef BTRFS_INO_TABLES_H
#define BTRFS_INO_TABLES_H

#include "btrfsino.h"

/*
 * Parse @exports_file, or with NULL the system's /etc/exports and
 * the *.exports files in /etc/exports.d (missing ones are fine).  Problems are reported on
 * stderr as "btrfs-ino: FILE:LINE:COLUMN: MESSAGE"; returns 0 or -1.
 */
int read_exports(const char *exports_file, struct bino_exports **ret);

/*
 * Read @mountinfo_file (NULL: this process's own table); a malformed file is
 * reported as "btrfs-ino: FILE:LINE: MESSAGE".  Returns 0 or -1.
 */
int read_mounts(const char *mountinfo_file, struct bino_mounts **ret);

/* The audit progress line on stderr (a bino_audit_progress_fn). */
void show_audit_progress(const struct bino_audit_export *exp,
			 uint64_t entries, void *data);

#endif
