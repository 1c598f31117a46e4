/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit's state, shared by the files that make it up (as libmount's
 * mountP.h): what an audit keeps of each audited path (struct
 * bino_audit_target and its results) and the state of one walk of it
 * (struct audit_walk), with the steps one file of the audit asks of another:
 *
 *  - audit.c: the paths to audit and the walk that visits each one;
 *  - audit_levels.c: what each directory on the walk's path is to the
 *    clients, and the server mounts on the way (both passes);
 *  - audit_count.c: the first pass, counting collisions;
 *  - audit_nlink_names.c: nlink from the names the first walk meets;
 *  - audit_find.c: the second pass, finding what the first could not know;
 *  - audit_subvols.c: the devices and subvolumes met;
 *  - audit_results.c: the public getters of the results.
 */
#ifndef BINO_AUDIT_STATE_H
#define BINO_AUDIT_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ckeys.h"
#include "hash.h"
#include "internal.h"
#include "nfsview.h"
#include "nlink_tree.h"
#include "subvol.h"

struct bino_audit_example {
	char *path[2]; /* path[0] NULL until the second walk finds it */
	struct bino_key key[2];
	size_t client_fs;
	uint64_t seq; /* walk order of the colliding entry */
	uint32_t first_identity; /* of path[0], for the second walk */
};

struct bino_audit_submount {
	const struct bino_mount *mount;
	enum bino_submount_view view;
	size_t client_fs;
};

struct bino_audit_subvol {
	uint64_t dev;
	uint64_t id;
	char *path;
	char *fs_path;
	enum bino_error info_error; /* BINO_OK, or why info is unknown */
	int info_errno;
	struct bino__subvol_info info;
	uint64_t walk_parent_id; /* of the directory it was met in, or 0 */
	uint64_t snapshot_of;
	size_t client_fs;
	const struct bino_mount **mounts;
	size_t n_mounts, cap_mounts;
	uint64_t client_dev; /* client view: st_dev at its root here */
	bool own_filesystem; /* client view: a client filesystem of its own */
};

struct bino_audit_pair {
	uint64_t subvolid_a;
	uint64_t subvolid_b;
	uint64_t collisions[BINO_COLLISION_NR];
};

struct bino_audit_device {
	uint64_t dev;
	enum bino_device_kind kind;
	uint64_t entries;
	char *path;
	uint64_t subvolid;
	const struct bino_mount *mount;
	UT_hash_handle hh;
};

struct bino_audit_target {
	struct bino_audit *audit;
	char *path;
	bool resolved;
	const struct bino_export *source;
	bool covered; /* source exports a directory above path */
	const struct bino_mount *filesystem; /* of the server table */
	int flags;
	enum bino_error error;
	int error_errno;
	uint64_t entries;
	uint64_t unreadable;
	uint64_t collisions[BINO_COLLISION_NR];
	struct bino_audit_example examples[BINO_COLLISION_NR]
					  [BINO_AUDIT_EXAMPLES_MAX];
	size_t n_examples[BINO_COLLISION_NR];
	struct bino_audit_pair *pairs;
	size_t n_pairs, cap_pairs;
	size_t last_pair; /* consecutive entries tend to share their pair */
	struct bino_audit_submount *submounts;
	size_t n_submounts, cap_submounts;
	size_t n_client_fs;
	struct bino_audit_subvol *subvols;
	size_t n_subvols, cap_subvols;
	struct bino_audit_device **devices;
	size_t n_devices, cap_devices;
	struct bino_audit_device *device_index;
	bool client_view; /* on an NFS client mount: as this client sees it */
	uint64_t *client_devs; /* client view: st_dev of each client fs */
	size_t cap_client_devs;
};

struct bino_audit {
	const struct bino_exports *exports;
	const struct bino_mounts *server; /* given, or own_mounts */
	struct bino_mounts *own_mounts; /* this process's table */
	int flags;
	bool ran;
	struct nfsview_exports *resolved;
	struct bino_audit_target **items;
	size_t count, cap;
	bino_audit_progress_fn *progress;
	void *progress_data;
	bool no_tree_search; /* not allowed to read btrfs trees: stat */
};

/* What the walk keeps of each directory on the current path. */
struct audit_level {
	size_t client_fs;
	int flags; /* export flags of the client filesystem */
	uint64_t ino;
	struct bino_key key;
	size_t path_len;
	enum {
		PROBE_NONE, /* no child stat'ed yet */
		PROBE_OK, /* children can be stat'ed */
		PROBE_FAILED, /* they cannot: stat each, as unreadable */
	} probe;
};

/* The key of a group whose hardlink-class entries wait for first_links. */
struct waiting_key {
	size_t client_fs;
	uint64_t ino;
};

/* A hardlink-class entry waiting for its group's first_links. */
struct link_event {
	uint64_t seq;
	uint32_t identity;
	uint32_t next;
	char *path; /* NULL once it can no longer be an example */
};

/*
 * A subvolume whose names the walk counts, from its root to the end of its
 * root's subtree (audit_nlink_names.c).  Its inodes met twice go to its
 * identity's links set.
 */
struct audit_window {
	uint32_t identity;
	int depth; /* of its root */
	size_t client_fs;
	uint64_t dev;
	uint64_t subvolid;
	bool incomplete; /* names hidden: a mount, an unreadable directory */
	struct inoset seen; /* inodes met once or more */
	struct inoset deferred; /* taken for one name before all were met */
};

struct audit_walk {
	struct bino_audit *audit;
	struct bino_audit_target *target;
	struct bino_walk *walk;
	struct nfsview view; /* the server's, as the clients see it */
	struct ckey_table *groups;
	struct audit_level *levels;
	size_t cap_levels;
	uint64_t next_progress;
	int pass; /* 1 counts, 2 finds what the first left missing */
	uint64_t seq; /* entries counted so far */
	struct link_event *events;
	size_t n_events, cap_events;
	struct waiting_key *waiting; /* of the groups with events */
	size_t n_waiting, cap_waiting;
	size_t missing; /* second walk: paths and first entries to find */
	struct bino__links_ahead *ahead; /* NULL off btrfs */
	bool search_by_right; /* may search any btrfs directory */
	uid_t euid;
	bool count_names; /* nlink from the walk's own names (audit_nlink_names.c) */
	bool restart; /* a guess may be wrong: count again, stat'ing */
	struct audit_window *windows; /* open, outermost first */
	size_t n_windows, cap_windows;
	struct inoset *hint; /* per client fs: inodes met with several names */
	size_t cap_hint;
};

/* ---- the levels and the mounts on the way (audit_levels.c) ------------- */

/* What a pass does with an entry once its level is set. */
enum audit_enter {
	AUDIT_ENTER_WALK, /* count or find it (a directory: and what it holds) */
	AUDIT_ENTER_COVERED, /* a mount point not crossed: the directory it
				covers stands for it, in its parent's client
				filesystem; the walk does not go below */
	AUDIT_ENTER_SKIP, /* nothing to count: a placeholder the clients
			     cannot see, or a covered directory not found */
};

/*
 * Set the level of @entry (a directory's or not, @is_dir) at its depth:
 * its client filesystem, export flags, client key and path length, and
 * cross the server mount it may be.  BINO_ERROR_STOP_ITERATION ends the
 * pass: the client view cannot tell subvolumes apart, or the first pass
 * must start again (aw->restart).
 */
BINO_WARN_UNUSED
enum bino_error bino__audit_level_enter(struct audit_walk *aw,
					struct bino_entry *entry, bool is_dir,
					enum audit_enter *how);

/* ---- the first pass (audit_count.c) ------------------------------------ */

/*
 * Count the entry at @path, @depth of the walk (its level set: client
 * filesystem and key are read there, and the ancestors' for loops): @nlink
 * is known whenever its key was met before and it is no directory.  The
 * classification itself: no system call, no walk entry.
 */
BINO_WARN_UNUSED
enum bino_error bino__audit_count(struct audit_walk *aw, const char *path,
				  int depth, bool is_dir, uint64_t nlink);
/*
 * The first entry of @group (key @ino in client filesystem @client_fs) is
 * now known to be (@links) or not a non-directory with several links:
 * count it in the hardlink class, then the entries that waited for this.
 */
BINO_WARN_UNUSED
enum bino_error bino__audit_group_resolve(struct audit_walk *aw,
					  struct ckey_group *group, bool links,
					  uint64_t ino, size_t client_fs);

/* ---- nlink from the walk's names (audit_nlink_names.c) ----------------------- */

/* How the name of a non-directory was counted. */
enum audit_names {
	AUDIT_NAMES_NONE, /* not in a window whose names are all met */
	AUDIT_NAMES_FIRST, /* the first of its inode in the window */
	AUDIT_NAMES_AGAIN, /* its inode has several names */
};

/* Before each entry of the first walk at @depth: close the windows it left. */
void bino__audit_names_leave(struct audit_walk *aw, int depth);
/*
 * The directory @entry at @depth (its level set) is walked into: a window
 * opens if it is the root of a subvolume whose names were not counted.
 */
BINO_WARN_UNUSED
enum bino_error bino__audit_names_open(struct audit_walk *aw,
				       struct bino_entry *entry, int depth);
/*
 * Names are hidden below the entry at @depth (a mount, an unreadable
 * directory): no more guesses in the window of its directory nor in those
 * open at @depth or deeper, and aw->restart is set if some were made.
 */
void bino__audit_names_hidden(struct audit_walk *aw, int depth);
/*
 * Count the name of the non-directory at @depth (> 0) in its window, in
 * *@ret; aw->restart is set if it proves a guess wrong.
 */
BINO_WARN_UNUSED
enum bino_error bino__audit_names_count(struct audit_walk *aw, int depth,
					enum audit_names *ret);
/*
 * Whether nlink of the non-directory at @depth, counted as @names, is known
 * without stat (*@known, then *@nlink 1 or 2): with several names met, or
 * guessed 1 (deferred).  Not without a child of its directory stat'ed.
 */
BINO_WARN_UNUSED
enum bino_error bino__audit_names_nlink(struct audit_walk *aw, int depth,
					enum audit_names names, bool *known,
					uint64_t *nlink);
/* The entry at @depth was stat'ed: @nlink feeds the hint. */
BINO_WARN_UNUSED
enum bino_error bino__audit_names_stated(struct audit_walk *aw, int depth,
					 uint64_t nlink);
/* Close every window and release the hint. */
void bino__audit_names_clear(struct audit_walk *aw);

/* ---- the second pass (audit_find.c) ------------------------------------ */

/* After the first pass: mark what the second must find, in aw->missing. */
void bino__audit_find_start(struct audit_walk *aw);
/* One entry of the second walk, with its level set as the first walk did. */
BINO_WARN_UNUSED
enum bino_error bino__audit_find_entry(struct audit_walk *aw,
				       struct bino_entry *entry, int depth,
				       bool is_dir);
/* After the second pass: settle what it did not find. */
BINO_WARN_UNUSED
enum bino_error bino__audit_find_finish(struct audit_walk *aw);

/* ---- devices and subvolumes (audit_subvols.c) -------------------------- */

/* Count @entry's raw st_dev, recording the device if new. */
BINO_WARN_UNUSED
enum bino_error bino__audit_note_device(struct audit_walk *aw,
					struct bino_entry *entry);
/*
 * Record the subvolume of @entry, if new: a subvolume root, or (@holding)
 * the subvolume holding the audited path.
 */
BINO_WARN_UNUSED
enum bino_error bino__audit_note_subvol(struct audit_walk *aw,
					struct bino_entry *entry,
					size_t client_fs, bool holding);
/* After the walk: what each snapshot is of, where each subvolume is mounted. */
BINO_WARN_UNUSED
enum bino_error bino__audit_finish_subvols(struct bino_audit *audit,
					   struct bino_audit_target *target);

#endif
