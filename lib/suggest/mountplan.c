/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Mount plans: the server mounts that make an export's btrfs subvolumes
 * filesystems of their own for NFS clients, as steps that can be shown and
 * then, explicitly, carried out.  Components (mountplan_state.h names the
 * file of each):
 *
 *  - plan_add_mount() (mountplan_subvols.c): a step per subvolume of a
 *    suggestion that is not mounted on its own path, with exactly the
 *    facts the server-fstab block is written from (filesystem UUID,
 *    subvolume ID, the options of the mount holding the export minus
 *    subvol=/subvolid=), the audited path it lies below, and the owner of
 *    its root directory; or a skip step where the policy below refuses it.
 *  - tree_*() (mountplan_tree.c): the same steps without an audit, for
 *    bino_mountplan_add_subvols(): the subvolumes below the path from the
 *    btrfs subvolume tree (probe/subvol.c: the root tree's ROOT_REFs,
 *    never a directory read), from the root of the subvolume holding the
 *    path and from each mount of the filesystem below it, each kept only
 *    where a lookup beneath the path reaches its root now
 *    (bino__tree_reaches(): what a walk would have met, so never a
 *    snapshot's placeholder), its owner from that one stat.  The lookup is
 *    made when the subvolume's step is planned (bino__plan_subvols()), and
 *    not at all for one whose owner, read from its own tree in one call
 *    (subvol_probe_owner()), is over the limit already: its skip step
 *    costs a probe and a counter.
 *  - The cost is linear in the subvolumes: the steps are found by path,
 *    the subvolumes by ID and the owners' tallies by owner in uthash
 *    tables (lib/util/hash.h), never by a search of the plan.
 *  - plan_add_stale() (here): a step per btrfs mount below a path whose
 *    root subvolume was deleted (mountinfo shows its root as
 *    "PATH//deleted", the kernel's dentry_path() for an unlinked dentry),
 *    with its mount ID.
 *  - step_open_*() (mountplan_apply.c): resolve a step's mount point as
 *    root must where users own the directories: the audited directory is
 *    opened with no symbolic link on its path and must be the one the plan
 *    saw (device and inode); the mount point is opened from it with
 *    openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS)
 *    (component by component with O_NOFOLLOW where openat2 is missing), so
 *    no symbolic link and no ".." anywhere can lead outside it, however the
 *    names are swapped (renameat2 RENAME_EXCHANGE) meanwhile.
 *  - step_apply() (mountplan_apply.c): a mount is made only on a directory
 *    that is the root of the planned subvolume itself (inode 256 of that
 *    subvolume ID, on the filesystem of that UUID, owned as planned),
 *    through /proc/self/fd of that very descriptor, never by its path
 *    again: should the user move it afterwards, the mount shows that
 *    subvolume on itself, nothing else.  An unmount is made only on the
 *    mount whose ID the plan read from mountinfo, again through
 *    /proc/self/fd.  A mismatch refuses that step.
 *
 * The policy (mountplan_policy.c; who may make root mount; btrfs-ino(1)
 * says the same): a subvolume whose root directory root owns is always
 * mounted: only root can make one (a snapshot takes its source's owner,
 * and the kernel lets only the source's owner snapshot it), so these are
 * the admin's, snapper's and btrbk's.  Any other owner's subvolumes are
 * mounted while that owner has fewer than max_user_mounts (default 100)
 * mounted below the audited path, those mounted already counted: any user
 * may create subvolumes, and thousands of mounts would be made for one
 * user's loop otherwise.  The subordinate user IDs a subuid(5) file gives
 * a user count as that user (bino__plan_counted_as(): a binary search of
 * the ranges), as a user namespace lets them chown a subvolume to each;
 * and all owners but root together stop at max_total_user_mounts (default
 * 1000).  The tallies are a uthash by owner, so an owner over the limit
 * costs a probe, not a search.  A mount point longer than PATH_MAX is
 * skipped: mount(8), findmnt and exportfs cannot name it.  Skips are steps
 * too, so a dry run lists them.
 *
 * Planning reads only; applying is the one call that changes the system.
 * mount(2) takes a device, not "UUID=": the device of the mount holding the
 * export is used, which is the filesystem of that UUID (read from it).
 *
 * This file holds the plan object: its steps by path, the limits, the
 * tallies' storage, the getters, the audited directory a plan resolves
 * from, and the stale unmounts.
 */
#include "mountplan_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "path.h"
#include "resolve.h"
#include "subvol.h"

void bino__step_free(struct bino_mountplan_step *step)
{
	if (!step)
		return;
	free(step->path);
	free(step->base);
	free(step->source);
	free(step->options);
	free(step->fs_path);
	free(step);
}

/* Which of the plan's by_path tables a step of @action is in. */
static size_t step_group(enum bino_mountplan_action action)
{
	return action == BINO_MOUNTPLAN_UMOUNT;
}

/*
 * Whether a step of @action on @path is planned already (a mount and a
 * skip are one: the subvolume on that path has its step).  A hash probe:
 * a plan of 100,000 steps would search itself 100,000 times otherwise.
 */
bool bino__plan_has(const struct bino_mountplan *plan,
		    enum bino_mountplan_action action, const char *path)
{
	struct bino_mountplan_step *found;

	HASH_FIND(hh, plan->by_path[step_group(action)], path, strlen(path),
		  found);
	return found != NULL;
}

/* Append @step (taken over, also on failure). */
enum bino_error bino__plan_append(struct bino_mountplan *plan,
				  struct bino_mountplan_step *step)
{
	bool out_of_memory = false;

	if (ARRAY_RESERVE(plan->steps, plan->cap_steps, plan->n_steps + 1) != 0) {
		bino__step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	HASH_ADD_KEYPTR(hh, plan->by_path[step_group(step->action)], step->path,
			strlen(step->path), step);
	if (out_of_memory) {
		bino__step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	plan->steps[plan->n_steps++] = step;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error bino_mountplan_create(int flags,
						  struct bino_mountplan **ret)
{
	struct bino_mountplan *plan;

	if (flags != 0 || !ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return BINO_ERROR_NO_MEMORY;
	plan->max_user_mounts = BINO_MOUNTPLAN_DEFAULT_MAX_USER_MOUNTS;
	plan->max_total_user_mounts = BINO_MOUNTPLAN_DEFAULT_MAX_TOTAL_USER_MOUNTS;
	*ret = plan;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error
bino_mountplan_set_max_user_mounts(struct bino_mountplan *plan, size_t max)
{
	if (!plan)
		return BINO_ERROR_INVALID_ARGUMENT;
	plan->max_user_mounts = max;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error
bino_mountplan_set_max_total_user_mounts(struct bino_mountplan *plan, size_t max)
{
	if (!plan)
		return BINO_ERROR_INVALID_ARGUMENT;
	plan->max_total_user_mounts = max;
	return BINO_OK;
}

/* Forget the counts of @tallies. */
static void tallies_clear(struct path_tallies *tallies)
{
	size_t i;

	HASH_CLEAR(hh, tallies->by_owner);
	for (i = 0; i < tallies->n; i++)
		free(tallies->order[i]);
	tallies->n = 0;
	tallies->user_mounts = 0;
}

enum bino_error bino__plan_tallies_start(struct bino_mountplan *plan,
					 const char *path)
{
	struct path_tallies *tallies;
	bool out_of_memory = false;

	if (bino__plan_tallies_resume(plan, path) == BINO_OK) {
		tallies_clear(plan->tallies);
		return BINO_OK;
	}
	tallies = calloc(1, sizeof(*tallies));
	if (!tallies || !(tallies->path = strdup(path))) {
		free(tallies);
		return BINO_ERROR_NO_MEMORY;
	}
	HASH_ADD_KEYPTR(hh, plan->tallies_by_path, tallies->path,
			strlen(tallies->path), tallies);
	if (out_of_memory) {
		free(tallies->path);
		free(tallies);
		return BINO_ERROR_NO_MEMORY;
	}
	plan->tallies = tallies;
	return BINO_OK;
}

enum bino_error bino__plan_tallies_resume(struct bino_mountplan *plan,
					  const char *path)
{
	struct path_tallies *tallies;

	HASH_FIND(hh, plan->tallies_by_path, path, strlen(path), tallies);
	if (!tallies)
		return BINO_ERROR_NOT_FOUND;
	plan->tallies = tallies;
	return BINO_OK;
}

BINO_PUBLIC void bino_mountplan_destroy(struct bino_mountplan *plan)
{
	struct path_tallies *tallies, *tmp;
	size_t i;

	if (!plan)
		return;
	HASH_CLEAR(hh, plan->by_path[0]);
	HASH_CLEAR(hh, plan->by_path[1]);

	for (i = 0; i < plan->n_steps; i++)
		bino__step_free(plan->steps[i]);
	free(plan->steps);
	HASH_ITER(hh, plan->tallies_by_path, tallies, tmp) {
		HASH_DEL(plan->tallies_by_path, tallies);
		tallies_clear(tallies);
		free(tallies->order);
		free(tallies->path);
		free(tallies);
	}
	free(plan->subuids);
	free(plan);
}

/* ---- resolving -------------------------------------------------------- */

/* close(2) that leaves errno as it was. */
void bino__close_keep_errno(int fd)
{
	int saved = errno;

	close(fd);
	errno = saved;
}

/*
 * The filesystem UUID of the directory @path_fd (an O_PATH descriptor),
 * through a descriptor of it that can take the ioctl; errno left set.
 */
enum bino_error bino__plan_fs_uuid(int path_fd, uint8_t uuid[16])
{
	int fd = openat(path_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC |
			O_NONBLOCK);
	int rc;

	if (fd < 0)
		return BINO_ERROR_OPEN_FAILED;
	rc = bino__fs_uuid_fd(fd, uuid);
	bino__close_keep_errno(fd);
	return rc == 0 ? BINO_OK : BINO_ERROR_SUBVOL_INFO_FAILED;
}

/* @path relative to @base, which it is below or equal to ("."). */
const char *bino__plan_path_below(const char *path, const char *base)
{
	size_t len = strcmp(base, "/") == 0 ? 0 : strlen(base);

	path += len;
	path += strspn(path, "/");
	return *path ? path : ".";
}

/* Open @path as the audited directory (base->fd -1 where it cannot be). */
void bino__plan_base_open(struct plan_base *base, const char *path)
{
	base->path = path;
	base->fd = bino__resolve_no_symlinks(path, O_PATH);
	if (base->fd >= 0 && fstat(base->fd, &base->st) != 0) {
		close(base->fd);
		base->fd = -1;
	}
}

void bino__plan_base_close(struct plan_base *base)
{
	if (base->fd >= 0)
		bino__close_keep_errno(base->fd);
	base->fd = -1;
}

/* A new step below @base, its path, base and identity copied. */
struct bino_mountplan_step *bino__step_new(enum bino_mountplan_action action,
					   const struct plan_base *base,
					   const char *path)
{
	struct bino_mountplan_step *step = calloc(1, sizeof(*step));

	if (!step)
		return NULL;
	step->action = action;
	step->owner = OWNER_UNKNOWN;
	step->counted_as = OWNER_UNKNOWN;
	step->has_base_id = base->fd >= 0;
	if (step->has_base_id) {
		step->base_dev = base->st.st_dev;
		step->base_ino = base->st.st_ino;
	}
	step->path = strdup(path);
	step->base = strdup(base->path);
	if (!step->path || !step->base) {
		bino__step_free(step);
		return NULL;
	}
	return step;
}

/* ---- stale mounts ------------------------------------------------------ */

/* Whether mountinfo shows @mount's root as deleted. */
static bool mount_deleted(const struct bino_mount *mount)
{
	const char *root = bino_mount_root(mount);
	size_t len = strlen(root), suffix = strlen(DELETED_SUFFIX);

	return len >= suffix && strcmp(root + len - suffix, DELETED_SUFFIX) == 0;
}

static enum bino_error plan_add_stale(struct bino_mountplan *plan,
				      const struct plan_base *base,
				      const struct bino_mount *mount)
{
	struct bino_mountplan_step *step;
	const char *root = bino_mount_root(mount);
	size_t root_len = strlen(root) - strlen(DELETED_SUFFIX);

	if (bino__plan_has(plan, BINO_MOUNTPLAN_UMOUNT, bino_mount_target(mount)))
		return BINO_OK;
	step = bino__step_new(BINO_MOUNTPLAN_UMOUNT, base, bino_mount_target(mount));
	if (!step)
		return BINO_ERROR_NO_MEMORY;
	step->subvolid = bino_mount_subvolid(mount);
	step->mount_id = bino_mount_id(mount);
	step->source = strdup(bino_mount_source(mount));
	step->fs_path = strndup(root, root_len);
	if (!step->source || !step->fs_path) {
		bino__step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	return bino__plan_append(plan, step);
}

BINO_PUBLIC enum bino_error bino_mountplan_add_stale(struct bino_mountplan *plan,
						     const struct bino_mounts *mounts,
						     const char *path)
{
	struct plan_base base = { .path = NULL, .fd = -1 };
	enum bino_error err = BINO_OK;
	size_t i;

	if (!plan || !mounts || !path || path[0] != '/')
		return BINO_ERROR_INVALID_ARGUMENT;
	for (i = 0; !err && i < bino_mounts_count(mounts); i++) {
		const struct bino_mount *mount = bino_mounts_get(mounts, i);

		if (strcmp(bino_mount_fstype(mount), "btrfs") != 0 ||
		    !bino__path_below(bino_mount_target(mount), path) ||
		    !mount_deleted(mount))
			continue;
		/* Opened only when there is something to unmount. */
		if (!base.path)
			bino__plan_base_open(&base, path);
		err = plan_add_stale(plan, &base, mount);
	}
	bino__plan_base_close(&base);
	return err;
}

/* ---- getters ----------------------------------------------------------- */

BINO_PUBLIC size_t bino_mountplan_count(const struct bino_mountplan *plan)
{
	return plan ? plan->n_steps : 0;
}

BINO_PUBLIC size_t bino_mountplan_unreached(const struct bino_mountplan *plan)
{
	return plan ? plan->unreached : 0;
}

BINO_PUBLIC const struct bino_mountplan_step *
bino_mountplan_get(const struct bino_mountplan *plan, size_t index)
{
	return plan && index < plan->n_steps ? plan->steps[index] : NULL;
}

BINO_PUBLIC enum bino_mountplan_action
bino_mountplan_step_action(const struct bino_mountplan_step *step)
{
	return step ? step->action : 0;
}

BINO_PUBLIC const char *
bino_mountplan_step_path(const struct bino_mountplan_step *step)
{
	return step ? step->path : NULL;
}

BINO_PUBLIC const char *
bino_mountplan_step_source(const struct bino_mountplan_step *step)
{
	return step ? step->source : NULL;
}

BINO_PUBLIC const uint8_t *
bino_mountplan_step_fs_uuid(const struct bino_mountplan_step *step)
{
	return step && step->has_uuid ? step->uuid : NULL;
}

BINO_PUBLIC uint64_t
bino_mountplan_step_subvolid(const struct bino_mountplan_step *step)
{
	return step ? step->subvolid : 0;
}

BINO_PUBLIC const char *
bino_mountplan_step_options(const struct bino_mountplan_step *step)
{
	return step ? step->options : NULL;
}

BINO_PUBLIC enum bino_mountplan_skip
bino_mountplan_step_skip(const struct bino_mountplan_step *step)
{
	return step ? step->skip : 0;
}

BINO_PUBLIC int64_t
bino_mountplan_step_owner(const struct bino_mountplan_step *step)
{
	return step ? step->owner : 0;
}

BINO_PUBLIC const char *
bino_mountplan_step_fs_path(const struct bino_mountplan_step *step)
{
	return step ? step->fs_path : NULL;
}

BINO_PUBLIC int64_t
bino_mountplan_step_counted_as(const struct bino_mountplan_step *step)
{
	return step ? step->counted_as : 0;
}

BINO_PUBLIC size_t bino_mountplan_owner_count(const struct bino_mountplan *plan)
{
	return plan && plan->tallies ? plan->tallies->n : 0;
}

BINO_PUBLIC int64_t bino_mountplan_owner_uid(const struct bino_mountplan *plan,
					     size_t index)
{
	return plan && plan->tallies && index < plan->tallies->n ?
		       plan->tallies->order[index]->owner : 0;
}

BINO_PUBLIC size_t bino_mountplan_owner_mounts(const struct bino_mountplan *plan,
					       size_t index)
{
	return plan && plan->tallies && index < plan->tallies->n ?
		       plan->tallies->order[index]->mounts : 0;
}

BINO_PUBLIC size_t bino_mountplan_user_mounts(const struct bino_mountplan *plan)
{
	return plan && plan->tallies ? plan->tallies->user_mounts : 0;
}
