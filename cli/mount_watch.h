/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino mount --watch: the loop that runs mount's pass again whenever
 * what the pass was planned from may have changed.
 */
#ifndef BTRFS_INO_MOUNT_WATCH_H
#define BTRFS_INO_MOUNT_WATCH_H

#include <stdbool.h>

/* The export table exportfs(8) leaves for mountd: what is exported now. */
#define LIVE_EXPORTS "/var/lib/nfs/etab"

struct mount_watch;

/*
 * One pass of mount: read the tables, call mount_watch_add() for each PATH
 * before planning it, plan and carry out.  Returns an exit status (EXIT_*).
 */
typedef int mount_pass_fn(struct mount_watch *watch, void *data);

struct mount_watch_config {
	const char *exports_file; /* NULL: the system's exports files */
	bool quiet; /* no "watching PATH" lines */
};

/*
 * Run @pass now, then again within a second of any change to what it read:
 * the btrfs filesystem holding a PATH it watched (bino_fswatch: a
 * subvolume created, deleted or renamed, another filesystem mounted
 * there), the mount table (a filesystem mounted or unmounted), or the
 * exports files and exportfs's live table (exportfs -ra).  SIGHUP runs it
 * again at once.  Until SIGTERM or SIGINT, which end it with EXIT_CLEAN
 * between passes, between a pass's steps, or at once while it plans.  The first pass's EXIT_USAGE (a PATH not exported)
 * ends it with that status; later passes' problems are told and the
 * watch goes on.  EXIT_USAGE if the watch cannot be set up.
 */
int mount_watch_run(const struct mount_watch_config *config,
		    mount_pass_fn *pass, void *data);

/*
 * During a pass: watch the btrfs filesystem holding @path from now on (the
 * first look is made now, before @path is planned, so no change after it
 * goes unseen).  A path not on btrfs is not watched: the mount table says
 * when a btrfs is mounted there.
 */
void mount_watch_add(struct mount_watch *watch, const char *path);

/*
 * During a pass: the plan listed a subvolume it could not reach yet (one
 * being created: bino_mountplan_unreached()), so run the pass again at the
 * next tick, whether or not anything else changed; at most RETRY_PASSES
 * times in a row.
 */
void mount_watch_look_again(struct mount_watch *watch);

/*
 * During a pass, between its steps: whether SIGTERM or SIGINT has come (the
 * pass then does no more steps and the watch ends with EXIT_CLEAN after it;
 * a SIGHUP read meanwhile runs the next pass at once).
 */
bool mount_watch_stopping(struct mount_watch *watch);

/*
 * During a pass: @planning true before what only reads (the tables, the
 * plan), false after it.  In between SIGTERM and SIGINT end the process at
 * once with EXIT_CLEAN (stdout flushed first): nothing is half done.
 */
void mount_watch_planning(struct mount_watch *watch, bool planning);

#endif
