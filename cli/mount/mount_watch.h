/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino mount --watch: the loop that runs mount's pass again whenever
 * what the pass was planned from may have changed.
 */
#ifndef BTRFS_INO_MOUNT_WATCH_H
#define BTRFS_INO_MOUNT_WATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The export table exportfs(8) leaves for mountd: what is exported now. */
#define LIVE_EXPORTS "/var/lib/nfs/etab"

struct mount_watch;

/*
 * A quick pass: only the subvolumes created below a watched PATH since the
 * last look (bino_fswatch_added_id()), planned on from the last full pass.
 */
struct mount_quick {
	const char *path; /* as given to mount_watch_add() */
	const uint64_t *ids;
	size_t n;
};

/*
 * One pass of mount.  A full one (@quick NULL): read the tables, call
 * mount_watch_add() for each PATH before planning it, plan and carry out.
 * A quick one: plan and carry out only @quick's subvolumes, or call
 * mount_watch_plan_whole() when it cannot.  Returns an exit status
 * (EXIT_*).
 */
typedef int mount_pass_fn(struct mount_watch *watch,
			  const struct mount_quick *quick, void *data);

struct mount_watch_config {
	const char *exports_file; /* NULL: the system's exports files */
	bool quiet; /* no "watching PATH" lines */
};

/*
 * Run @pass now, then again when what it read changed: a quick pass within
 * a second of a subvolume's creation below a watched PATH, a full pass
 * (paced) after any other change of the btrfs filesystem holding a PATH it
 * watched (bino_fswatch: a subvolume deleted or renamed, another
 * filesystem mounted there), of the mount table (a filesystem mounted or
 * unmounted), or of the exports files and exportfs's live table
 * (exportfs -ra).  SIGHUP runs a full pass at once.  Until SIGTERM or
 * SIGINT, which end it with EXIT_CLEAN at once, or after the step in
 * progress (mount_watch_acting()), saying so on stderr.  The first pass's
 * EXIT_USAGE (a PATH not exported) ends it with that status; later
 * passes' problems are told and the watch goes on.  EXIT_USAGE if the
 * watch cannot be set up.
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
 * next tick (a quick pass with the same subvolumes), whether or not
 * anything else changed; at most RETRY_PASSES times in a row.
 */
void mount_watch_look_again(struct mount_watch *watch);

/*
 * During a quick pass: it could not plan (no full pass planned its PATH
 * yet): a full pass is due, paced as one a change asks for.
 */
void mount_watch_plan_whole(struct mount_watch *watch);

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
