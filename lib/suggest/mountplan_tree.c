/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Planning without an audit (bino_mountplan_add_subvols()): the subvolumes
 * below a path from the btrfs subvolume tree (probe/subvol.c: the root
 * tree's ROOT_REFs, never a directory read), from the root of the
 * subvolume holding the path and from each mount of the filesystem below
 * it, each kept only where a lookup beneath the path reaches its root now
 * (bino__tree_reaches(): what a walk would have met, so never a
 * snapshot's placeholder).  Apart from the planning (mountplan_subvols.c),
 * which takes what is listed here as a suggestion's subvolumes are taken.
 */
#include "mountplan_state.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path.h"
#include "resolve.h"
#include "strbuf.h"
#include "subvol.h"

/* ---- planning from the subvolume tree ---------------------------------- */

/* The subvolume @id of @sp, or NULL. */
static const struct plan_subvol *subvol_plan_find(const struct subvol_plan *sp,
						  uint64_t id)
{
	struct subvol_id *entry;

	HASH_FIND(hh, sp->by_id, &id, sizeof(id), entry);
	return entry ? &sp->subvols[entry->index] : NULL;
}

/*
 * Whether the directory @path (below the audited path) is, as a lookup
 * from the audited directory reaches it now, the root of subvolume @id of
 * the audited filesystem: inode 256, that ID, that UUID where it can be
 * read.  Not a placeholder (inode 2) a snapshot holds where its source had
 * a subvolume, nor what another mount hides it under, nor anything reached
 * through a symbolic link.  Its owner into *@owner.  Opened with O_PATH
 * (a dry run by a user may not be able to read it) and never read: an open
 * and a stat per subvolume, nothing per file.
 */
enum tree_reach bino__tree_reaches(const struct subvol_plan *sp,
				   const char *path, uint64_t id,
				   int64_t *owner)
{
	const char *rel = bino__plan_path_below(path, sp->base.path);
	uint64_t found_id;
	uint8_t uuid[16];
	struct stat st;
	bool same = false;
	int fd, errnum;

	/* Beyond PATH_MAX openat2 cannot take it whole: a name at a time. */
	fd = strlen(rel) >= PATH_MAX ? bino__resolve_by_names(sp->base.fd, rel, O_PATH) :
				       bino__resolve_beneath(sp->base.fd, rel, O_PATH);
	if (fd < 0)
		return errno == ENOENT ? TREE_MISSING : TREE_OTHER;
	if (fstat(fd, &st) != 0 || st.st_ino != SUBVOL_ROOT_INO ||
	    bino__subvolid_file_handle(fd, "", AT_EMPTY_PATH, &found_id,
				       &errnum) != BINO_OK ||
	    found_id != id)
		goto out_close;
	same = true;
	/* Another btrfs has the same IDs; keep what cannot be told apart. */
	if (bino__plan_fs_uuid(fd, uuid) == BINO_OK)
		same = memcmp(uuid, sp->uuid, sizeof(uuid)) == 0;
	/* As the step's owner, which is checked before mounting. */
	*owner = OWNER_UNKNOWN;
	if (strlen(path) < PATH_MAX)
		*owner = st.st_uid;

out_close:
	close(fd);
	return same ? TREE_REACHES : TREE_OTHER;
}

/* Whether the mount on @path is one of subvolume @id of the filesystem. */
static bool tree_mounted(const struct subvol_plan *sp,
			 const struct bino_mounts *mounts, const char *path,
			 uint64_t id)
{
	const struct bino_mount *mount = bino__mounts_at(mounts, path);

	return mount && strcmp(bino_mount_fstype(mount), "btrfs") == 0 &&
	       bino_mount_dev(mount) == bino_mount_dev(sp->filesystem) &&
	       bino_mount_subvolid(mount) == id;
}

/* One subvolume root's listing: where the paths it yields are. */
struct tree_listing {
	struct subvol_plan *sp;
	struct bino_mountplan *plan; /* a quick planning's: tree_add_new() */
	const struct bino_mounts *mounts;
	const char *root; /* the listed subvolume's root, absolute */
	enum bino_error err; /* why the listing was stopped */
};

/* @rel below @root, absolute; NULL when out of memory. */
static char *path_join(const char *root, const char *rel)
{
	return bino__str_concat((const char *const[]){
		strcmp(root, "/") == 0 ? "" : root, "/", rel }, 3);
}

/*
 * A subvolume of the listing: kept, unchecked, when it lies strictly below
 * the audited path; bino__plan_subvols() checks it is reachable there (its first
 * path that is, as a walk meets it first) when its step is planned.  One
 * whose name is not found then is counted as unreached: btrfs links a new
 * subvolume in the root tree while its transaction commits, but the name
 * appears in the directory only when the call that made it returns (until
 * then a lookup meets the negative dentry the creating call holds), so a
 * plan made in between sees the subvolume and no path to it; a keeper
 * plans again a moment later.
 */
static enum bino_error tree_add_one(const char *rel,
				    const struct bino__subvol_info *info,
				    void *data)
{
	struct tree_listing *listing = data;
	struct subvol_plan *sp = listing->sp;
	char *path = path_join(listing->root, rel);

	if (!path) {
		listing->err = BINO_ERROR_NO_MEMORY;
		return listing->err;
	}
	if (bino__path_below(path, sp->base.path))
		listing->err = bino__subvol_plan_add(sp, path, info->id, OWNER_UNKNOWN,
						     tree_mounted(sp, listing->mounts,
							    path, info->id),
						     false);
	free(path);
	return listing->err;
}

/*
 * List the subvolumes below the subvolume whose root is @root_fd, which
 * is at @root: what adding them failed with, or
 * BINO_ERROR_SUBVOL_INFO_FAILED with errno set when the listing failed
 * (the public API's callers read it).
 */
static enum bino_error tree_list(struct tree_listing *listing,
				 const char *root, int root_fd)
{
	enum bino_error err;
	int errnum = 0;

	listing->root = root;
	err = bino__subvol_list_fd(root_fd, tree_add_one, listing, &errnum);
	if (listing->err)
		return listing->err;
	errno = errnum;
	return err ? BINO_ERROR_SUBVOL_INFO_FAILED : BINO_OK;
}

/*
 * The root of the subvolume holding the audited directory: the directory
 * itself or its nearest ancestor with inode 256 on the same device (each
 * subvolume has a device number of its own, so an ancestor on another
 * device ends the search: ENOENT, the filesystem was mounted from a
 * directory inside a subvolume).  Allocated, or NULL with errno.
 */
static char *subvol_root_path(const struct plan_base *base)
{
	char *root = strdup(base->path), *slash;
	struct stat st = base->st;

	if (!root)
		return NULL;
	while (st.st_ino != SUBVOL_ROOT_INO) {
		slash = strrchr(root, '/');
		if (!slash || strcmp(root, "/") == 0)
			goto out_enoent;
		slash[slash == root ? 1 : 0] = '\0';
		if (lstat(root, &st) != 0)
			goto out_free;
		if (st.st_dev != base->st.st_dev)
			goto out_enoent;
	}
	return root;

out_enoent:
	errno = ENOENT;
out_free:
	free(root);
	return NULL;
}

/* The export's own subvolume, listed from its root. */
static enum bino_error tree_list_holding(struct tree_listing *listing)
{
	struct subvol_plan *sp = listing->sp;
	char *root = subvol_root_path(&sp->base);
	enum bino_error err;
	int fd;

	if (!root)
		return BINO_ERROR_OPEN_FAILED;
	fd = bino__resolve_no_symlinks(root, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		free(root);
		return BINO_ERROR_OPEN_FAILED;
	}
	err = tree_list(listing, root, fd);
	bino__close_keep_errno(fd);
	free(root);
	return err;
}

/*
 * A subvolume of the filesystem mounted below the audited path, with those
 * below it, as a walk crossing into the mount meets them.  A mount whose
 * root cannot be listed (a directory, a deleted subvolume) adds nothing
 * below it, and neither does a subvolume mounted on the path its parent's
 * listing gave it (what a keeper leaves: every path below it was listed
 * already, and listing each of a thousand such mounts again would read
 * the root tree a thousand times).
 */
static enum bino_error tree_list_mount(struct tree_listing *listing,
				       const struct bino_mount *mount)
{
	struct subvol_plan *sp = listing->sp;
	const char *target = bino_mount_target(mount);
	uint64_t id = bino_mount_subvolid(mount);
	const struct plan_subvol *listed;
	int64_t owner = OWNER_UNKNOWN;
	enum bino_error err;
	int fd;

	if (strcmp(bino_mount_fstype(mount), "btrfs") != 0 ||
	    bino_mount_dev(mount) != bino_mount_dev(sp->filesystem) || !id)
		return BINO_OK;
	listed = subvol_plan_find(sp, id);
	if (listed && strcmp(listed->path, target) == 0)
		return BINO_OK;
	if (!listed &&
	    bino__tree_reaches(sp, target, id, &owner) == TREE_REACHES) {
		err = bino__subvol_plan_add(sp, target, id, owner,
					    tree_mounted(sp, listing->mounts,
							 target, id),
					    true);
		if (err)
			return err;
	}
	fd = strlen(target) >= PATH_MAX ? -1 :
		bino__resolve_beneath(sp->base.fd,
				      bino__plan_path_below(target, sp->base.path),
				      O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return BINO_OK;
	(void)tree_list(listing, target, fd);
	close(fd);
	return listing->err;
}

/*
 * Make @sp ready to plan the subvolumes below @path: the mount of @mounts
 * holding it, the audited directory opened, its filesystem's UUID and
 * options read.  BINO_OK; BINO_ERROR_STOP_ITERATION when @path is not on
 * btrfs (nothing to plan); else the error bino_mountplan_add_subvols()
 * documents, and @sp is released.
 */
static enum bino_error tree_plan_open(struct subvol_plan *sp,
				      const struct bino_mounts *mounts,
				      const char *path)
{
	enum bino_error err;

	sp->filesystem = bino__mounts_holding(mounts, path);
	if (!sp->filesystem) {
		errno = 0;
		return BINO_ERROR_NOT_FOUND;
	}
	if (strcmp(bino_mount_fstype(sp->filesystem), "btrfs") != 0)
		return BINO_ERROR_STOP_ITERATION;
	bino__plan_base_open(&sp->base, path);
	if (sp->base.fd < 0)
		return BINO_ERROR_OPEN_FAILED;
	err = bino__plan_fs_uuid(sp->base.fd, sp->uuid);
	if (!err) {
		sp->options = bino__mount_options_for_subvol(sp->filesystem);
		err = sp->options ? BINO_OK : BINO_ERROR_NO_MEMORY;
	}
	if (err) {
		bino__plan_base_close(&sp->base);
		return err;
	}
	sp->probe_fd = openat(sp->base.fd, ".", O_RDONLY | O_DIRECTORY |
			      O_CLOEXEC | O_NONBLOCK);
	return BINO_OK;
}

/* Plan what @listing holds, and release it. */
static enum bino_error tree_plan_close(struct bino_mountplan *plan,
				       struct tree_listing *listing,
				       enum bino_error err)
{
	struct subvol_plan *sp = listing->sp;

	if (!err)
		err = bino__plan_subvols(plan, sp);
	plan->unreached += sp->unreached;
	free((char *)sp->options);
	bino__subvol_plan_release(sp);
	return err;
}

BINO_PUBLIC enum bino_error
bino_mountplan_add_subvols(struct bino_mountplan *plan,
			   const struct bino_mounts *mounts, const char *path)
{
	struct subvol_plan sp = { .base = { .fd = -1 }, .probe_fd = -1 };
	struct tree_listing listing = { .sp = &sp, .mounts = mounts };
	const struct bino_mount *const *below_mounts;
	enum bino_error err;
	size_t n, i;

	if (!plan || !mounts || !path || path[0] != '/')
		return BINO_ERROR_INVALID_ARGUMENT;
	err = bino__plan_tallies_start(plan, path);
	if (!err)
		err = tree_plan_open(&sp, mounts, path);
	if (err)
		return err == BINO_ERROR_STOP_ITERATION ? BINO_OK : err;
	err = tree_list_holding(&listing);
	n = bino__mounts_below(mounts, path, &below_mounts);
	for (i = 0; !err && i < n; i++)
		err = tree_list_mount(&listing, below_mounts[i]);
	return tree_plan_close(plan, &listing, err);
}

/*
 * The subvolumes of a quick planning: like tree_add_one(), but one the plan
 * has a step for already (its full planning met it) is left out, lest it be
 * counted twice.
 */
static enum bino_error tree_add_new(const char *rel,
				    const struct bino__subvol_info *info,
				    void *data)
{
	struct tree_listing *listing = data;
	char *path = path_join(listing->root, rel);
	bool planned;

	if (!path) {
		listing->err = BINO_ERROR_NO_MEMORY;
		return listing->err;
	}
	/* A mount and a skip are one table: one probe asks for both. */
	planned = bino__plan_has(listing->plan, BINO_MOUNTPLAN_MOUNT, path);
	free(path);
	return planned ? BINO_OK : tree_add_one(rel, info, data);
}

BINO_PUBLIC enum bino_error
bino_mountplan_add_subvol_ids(struct bino_mountplan *plan,
			      const struct bino_mounts *mounts,
			      const char *path, const uint64_t *ids, size_t n)
{
	struct subvol_plan sp = { .base = { .fd = -1 }, .probe_fd = -1 };
	struct tree_listing listing = { .sp = &sp, .mounts = mounts,
					.plan = plan };
	enum bino_error err;
	char *root;
	int fd, errnum;

	if (!plan || !mounts || !path || path[0] != '/' || (n && !ids))
		return BINO_ERROR_INVALID_ARGUMENT;
	err = bino__plan_tallies_resume(plan, path);
	if (err)
		errno = 0;
	else
		err = tree_plan_open(&sp, mounts, path);
	if (err)
		return err == BINO_ERROR_STOP_ITERATION ? BINO_OK : err;
	root = subvol_root_path(&sp.base);
	fd = root ? bino__resolve_no_symlinks(root, O_RDONLY | O_NONBLOCK) : -1;
	if (fd < 0) {
		err = BINO_ERROR_OPEN_FAILED;
	} else {
		listing.root = root;
		err = bino__subvol_paths_fd(fd, ids, n, tree_add_new, &listing,
					    &errnum);
		if (listing.err)
			err = listing.err;
		else if (err)
			errno = errnum;
		bino__close_keep_errno(fd);
	}
	free(root);
	return tree_plan_close(plan, &listing, err);
}
