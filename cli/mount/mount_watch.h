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
 * again at once.  Until SIGTERM or SIGINT, which end it with EXIT_CLEAN at
 * once, or after the step in progress (mount_watch_acting()).  The first pass's EXIT_USAGE (a PATH not exported)
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
 * During a pass: @acting true just before a step changes the system (a
 * mount or an unmount), false right after it.  SIGTERM and SIGINT end the
 * keeper at once with EXIT_CLEAN (stdout flushed) anywhere but in a step,
 * which they wait for: the keeper ends within a second at any point of a
 * pass, however long its plan or its look at the filesystems takes, and
 * never leaves half a mount.
 */
void mount_watch_acting(struct mount_watch *watch, bool acting);

#endif
