/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The first and the last lines of audit's text report, in the admin's
 * words: per PATH which tools break and the fix, and the command to run next
 * with the options that change its answer.
 */
#ifndef BTRFS_INO_AUDIT_VERDICT_H
#define BTRFS_INO_AUDIT_VERDICT_H

#include <stdbool.h>

#include "audit_drift.h"
#include "btrfsino.h"
#include "output.h"

/* The options of the audit that the next command must be given too. */
struct audit_next {
	const char *exports_file;
	const char *mountinfo_file;
	const char *server;
	const char *client_dir;
	struct drift_steps drift; /* what the drift reported asks to run */
	/*
	 * The exports and server fstab need no change for any unsafe path
	 * (suggest --diff would print nothing): only mounts remain.
	 */
	bool files_right;
	/*
	 * On an NFS client: its NFS mount (DIR) of a path below which the
	 * server has mounts this client had not crossed before the audit
	 * walked into them, or NULL.
	 */
	const char *keeper_dir;
};

/*
 * One verdict per audited path: "PATH: safe", or "PATH: unsafe: find
 * reports N loops; tar, rsync -H and du merge N files; ...; fix: ...",
 * wrapped at 80 columns.  @color: red and green.  Returns 0, or -1 with
 * errno set (out of memory: nothing printed of the path that failed).
 */
int audit_verdict_lines(struct output *out, const struct bino_audit *audit,
			bool color);

/*
 * "next: " and the one step that remains, or nothing when nothing was
 * audited: on a client, the client keeper ("btrfs-ino mount --watch
 * --client DIR") for @next->keeper_dir, else for an unsafe path what the
 * client can do; after drift, the commands its lines name
 * (suggest --diff, exportfs -ra, mount -a); for unsafe paths, "btrfs-ino
 * suggest [OPTION]... PATH", or "btrfs-ino mount PATH" when the files are
 * right; else that nothing is to change.  @blank: a blank line first;
 * @suggested: the suggestions are printed already, so an unsafe audit gets
 * no line.  Returns 0, or -1 with errno set (out of memory).
 */
int audit_next_line(struct output *out, const struct bino_audit *audit,
		    const struct audit_next *next, bool blank, bool suggested);

#endif
