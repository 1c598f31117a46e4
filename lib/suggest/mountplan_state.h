/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mount plan's state, shared by the files that make it up (as
 * libmount's mountP.h): the plan and its steps (struct bino_mountplan),
 * the audited directory a plan resolves from (struct plan_base) and the
 * subvolumes below one audited path being planned (struct subvol_plan),
 * with the steps one file of the plan asks of another:
 *
 *  - mountplan.c: the plan object, its steps and their getters, resolving
 *    the audited directory, and the stale unmounts (bino_mountplan_add_stale);
 *  - mountplan_policy.c: who may have root mount their subvolumes: the
 *    subordinate IDs (subuid(5)) and the owners' tallies against the limits;
 *  - mountplan_subvols.c: a mount or skip step per subvolume below an
 *    audited path, in order (bino__plan_subvols), and planning from a
 *    suggestion (bino_mountplan_add_suggestion);
 *  - mountplan_tree.c: the subvolumes below a path from the btrfs subvolume
 *    tree, each checked to be reached at its path (bino_mountplan_add_subvols);
 *  - mountplan_apply.c: carrying out one step (bino_mountplan_step_apply).
 *
 * mountplan.c's head comment says what a plan is and the policy it follows.
 */
#ifndef BINO_MOUNTPLAN_STATE_H
#define BINO_MOUNTPLAN_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "hash.h"
#include "internal.h"
#include "mounts.h"

/* The inode of every btrfs subvolume root (BTRFS_FIRST_FREE_OBJECTID). */
#define SUBVOL_ROOT_INO 256
/* How mountinfo shows the root of a mount whose dentry was deleted. */
#define DELETED_SUFFIX "//deleted"
/* The owner of a mount point that could not be opened when planned. */
#define OWNER_UNKNOWN (-1)

struct bino_mountplan_step {
	enum bino_mountplan_action action;
	enum bino_mountplan_skip skip; /* why, for BINO_MOUNTPLAN_SKIP */
	char *path; /* the mount point */
	char *base; /* the audited directory path lies below (or is) */
	bool has_base_id; /* base could be opened when planned: */
	dev_t base_dev; /* its identity then */
	ino_t base_ino;
	char *source; /* the device to mount, or the stale mount's source */
	char *options; /* mount: the fstab options, subvolid= last */
	char *fs_path; /* unmount: the deleted subvolume's path in the filesystem */
	bool has_uuid;
	uint8_t uuid[16];
	uint64_t subvolid;
	int64_t owner; /* mount: the owner of the root directory, or OWNER_UNKNOWN */
	int64_t counted_as; /* owner, or the user whose subordinate ID it is */
	uint64_t mount_id; /* unmount: the mount's ID in mountinfo */
	UT_hash_handle hh; /* in the plan's by_path[step_group()], by path */
};

/* A range of subordinate user IDs (subuid(5)) and the owner it counts as. */
struct subid_range {
	uint64_t start, end; /* [start, end) */
	uint64_t max_end; /* the greatest end of this range and those before */
	int64_t owner;
};

/*
 * How many subvolume mounts one owner (subordinate IDs folded in) has
 * below the audited path: those there already and those planned.
 */
struct owner_tally {
	int64_t owner;
	size_t mounts;
	UT_hash_handle hh;
};

/*
 * The tallies of one audited path, kept by path for the life of the plan:
 * bino_mountplan_add_subvol_ids() adds to those of its path's last full
 * planning, so a keeper's quick pass is held to the same limits.
 */
struct path_tallies {
	char *path;
	struct owner_tally *by_owner; /* uthash head, by owner */
	struct owner_tally **order; /* in the order met, each allocated apart */
	size_t n, cap;
	size_t user_mounts; /* theirs added up */
	UT_hash_handle hh;
};

struct bino_mountplan {
	/* Allocated one by one: pointers to steps stay valid as the array grows. */
	struct bino_mountplan_step **steps;
	size_t n_steps, cap_steps;
	/* The steps by path: mounts and skips, and unmounts (step_group()). */
	struct bino_mountplan_step *by_path[2];
	size_t max_user_mounts; /* per owner other than root, per audited path */
	size_t max_total_user_mounts; /* all owners but root, per audited path */
	size_t unreached; /* tree subvolumes whose root a lookup did not find */
	struct subid_range *subuids; /* sorted by start */
	size_t n_subuids, cap_subuids;
	struct path_tallies *tallies_by_path; /* uthash head, by path */
	struct path_tallies *tallies; /* the audited path planned last, or NULL */
};

/*
 * The audited directory a plan resolves from, as the plan saw it.  A plan
 * is data (it may come from another machine's mount table): where the
 * directory cannot be opened, its steps are still planned, without its
 * identity, and are refused when carried out.
 */
struct plan_base {
	const char *path;
	int fd; /* O_PATH, or -1: not opened */
	struct stat st;
};

/*
 * A subvolume below the audited path as planning sees it, from a
 * suggestion (the audit's walk) or from the subvolume tree.
 */
struct plan_subvol {
	char *path;
	uint64_t id;
	int64_t owner; /* of its root directory, or OWNER_UNKNOWN */
	bool mounted; /* on its own path */
	bool checked; /* reached there, owner known (else: tree_reaches()) */
	struct subvol_id *by_id; /* its entry in the subvol_plan's by_id */
};

/*
 * A subvolume of a subvol_plan by ID: the index in subvols[] of its first
 * path (a subvolume listed again below another mount has more), and
 * whether one of its paths has been given its step or counted.
 */
struct subvol_id {
	uint64_t id;
	size_t index;
	bool decided;
	UT_hash_handle hh;
};

/* What the subvolumes below one audited path are planned with. */
struct subvol_plan {
	struct plan_base base;
	uint8_t uuid[16];
	const struct bino_mount *filesystem; /* the mount holding the path */
	const char *options; /* its fstab options ("defaults" for none) */
	struct plan_subvol *subvols; /* parents first */
	size_t n_subvols, cap_subvols;
	struct subvol_id *by_id; /* uthash over subvols[] */
	int probe_fd; /* the audited directory, to search trees; -1: cannot */
	size_t unreached; /* listed, but no lookup found their root (ENOENT) */
};

/* What a lookup of a subvolume's path beneath the audited path found. */
enum tree_reach {
	TREE_REACHES, /* the subvolume's root */
	TREE_OTHER, /* something else, or nothing it may go through */
	TREE_MISSING, /* no such name (ENOENT): see tree_add_one() */
};

/* ---- mountplan.c: the plan and its steps ------------------------------- */

/* Free @step (NULL: nothing). */
void bino__step_free(struct bino_mountplan_step *step);
/* Whether a step of @action on @path is planned already (a hash probe). */
bool bino__plan_has(const struct bino_mountplan *plan,
		    enum bino_mountplan_action action, const char *path);
/* Append @step (taken over, also on failure): BINO_ERROR_NO_MEMORY or BINO_OK. */
enum bino_error bino__plan_append(struct bino_mountplan *plan,
				  struct bino_mountplan_step *step);
/*
 * Count from zero for the audited path @path from now on (the tallies a
 * full planning of it starts with): BINO_ERROR_NO_MEMORY or BINO_OK.
 */
enum bino_error bino__plan_tallies_start(struct bino_mountplan *plan,
					 const char *path);
/*
 * Count on from the tallies of @path's last full planning:
 * BINO_ERROR_NOT_FOUND (@path was never planned whole) or BINO_OK.
 */
enum bino_error bino__plan_tallies_resume(struct bino_mountplan *plan,
					  const char *path);
/* close(2) that leaves errno as it was. */
void bino__close_keep_errno(int fd);
/* The filesystem UUID of the O_PATH directory @path_fd; errno left set. */
enum bino_error bino__plan_fs_uuid(int path_fd, uint8_t uuid[16]);
/* @path relative to @base, which it is below or equal to ("."). */
const char *bino__plan_path_below(const char *path, const char *base);
/* Open @path as the audited directory (base->fd -1 where it cannot be). */
void bino__plan_base_open(struct plan_base *base, const char *path);
void bino__plan_base_close(struct plan_base *base);
/* A new step below @base, its path, base and identity copied; NULL: ENOMEM. */
struct bino_mountplan_step *bino__step_new(enum bino_mountplan_action action,
					   const struct plan_base *base,
					   const char *path);

/* ---- mountplan_policy.c: who may have root mount ----------------------- */

/* The owner @uid counts as: the user whose subordinate range holds it, else @uid. */
int64_t bino__plan_counted_as(const struct bino_mountplan *plan, int64_t uid);
/*
 * Whether the policy lets @owner have one more mount, and why not into
 * *@skip (it is counted when allowed, and always when @mounted already).
 */
enum bino_error bino__policy_take(struct bino_mountplan *plan, int64_t owner,
				  bool mounted, enum bino_mountplan_skip *skip);
/* Whether the policy would skip a subvolume of @owner now, not counting it. */
bool bino__policy_over(const struct bino_mountplan *plan, int64_t owner);

/* ---- mountplan_subvols.c: the steps for one audited path --------------- */

void bino__subvol_plan_release(struct subvol_plan *sp);
/*
 * Add a path of a subvolume (@path copied), checked (reached, @owner
 * known) or to be checked when planned: BINO_ERROR_NO_MEMORY or BINO_OK.
 */
enum bino_error bino__subvol_plan_add(struct subvol_plan *sp, const char *path,
				      uint64_t id, int64_t owner, bool mounted,
				      bool checked);
/* The steps for the subvolumes of @sp, in order. */
enum bino_error bino__plan_subvols(struct bino_mountplan *plan,
				   struct subvol_plan *sp);

/* ---- mountplan_tree.c: the subvolume tree ------------------------------ */

/*
 * Whether the directory @path below the audited path is, as a lookup
 * reaches it now, the root of subvolume @id of the audited filesystem; its
 * owner into *@owner.
 */
enum tree_reach bino__tree_reaches(const struct subvol_plan *sp,
				   const char *path, uint64_t id,
				   int64_t *owner);

#endif
