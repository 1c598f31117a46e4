/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Mount plans: the server mounts that make an export's btrfs subvolumes
 * filesystems of their own for NFS clients, as steps that can be shown and
 * then, explicitly, carried out.  Components:
 *
 *  - plan_add_mount(): a step per subvolume of a suggestion that is not
 *    mounted on its own path, with exactly the facts the server-fstab block
 *    is written from (filesystem UUID, subvolume ID, the options of the
 *    mount holding the export minus subvol=/subvolid=).
 *  - plan_add_stale(): a step per btrfs mount below a path whose root
 *    subvolume was deleted (mountinfo shows its root as "PATH//deleted",
 *    the kernel's dentry_path() for an unlinked dentry).
 *  - step_apply(): mount(2) or umount2(2).  Before mounting, the mount point
 *    is opened without following links and must still be the root (inode
 *    256) of the planned subvolume: a snapshot's placeholder (inode 2) or a
 *    path that changed since the audit is refused, and the mount is made on
 *    that very directory through /proc/self/fd, not by its path again.
 *
 * Planning reads only; applying is the one call that changes the system.
 * mount(2) takes a device, not "UUID=": the device of the mount holding the
 * export is used, which is the filesystem of that UUID (read from it).
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "subvol.h"

/* The inode of every btrfs subvolume root (BTRFS_FIRST_FREE_OBJECTID). */
#define SUBVOL_ROOT_INO 256
/* How mountinfo shows the root of a mount whose dentry was deleted. */
#define DELETED_SUFFIX "//deleted"

struct bino_mountplan_step {
	enum bino_mountplan_action action;
	char *path; /* the mount point */
	char *source; /* the device to mount, or the stale mount's source */
	char *options; /* mount: the fstab options, subvolid= last */
	bool has_uuid;
	uint8_t uuid[16];
	uint64_t subvolid;
};

struct bino_mountplan {
	/* Allocated one by one: pointers to steps stay valid as the array grows. */
	struct bino_mountplan_step **steps;
	size_t n_steps, cap_steps;
};

/* Whether @path is strictly below directory @dir. */
static bool below(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	if (strcmp(dir, "/") == 0)
		return path[0] == '/' && path[1] != '\0';
	return strncmp(path, dir, len) == 0 && path[len] == '/' &&
	       path[len + 1] != '\0';
}

static void step_free(struct bino_mountplan_step *step)
{
	if (!step)
		return;
	free(step->path);
	free(step->source);
	free(step->options);
	free(step);
}

/* Whether a step of @action on @path is planned already. */
static bool plan_has(const struct bino_mountplan *plan,
		     enum bino_mountplan_action action, const char *path)
{
	size_t i;

	for (i = 0; i < plan->n_steps; i++) {
		if (plan->steps[i]->action == action &&
		    strcmp(plan->steps[i]->path, path) == 0)
			return true;
	}
	return false;
}

/* Append @step (taken over, also on failure). */
static enum bino_error plan_append(struct bino_mountplan *plan,
				   struct bino_mountplan_step *step)
{
	if (ARRAY_RESERVE(plan->steps, plan->cap_steps, plan->n_steps + 1) != 0) {
		step_free(step);
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
	*ret = plan;
	return BINO_OK;
}

BINO_PUBLIC void bino_mountplan_destroy(struct bino_mountplan *plan)
{
	size_t i;

	if (!plan)
		return;
	for (i = 0; i < plan->n_steps; i++)
		step_free(plan->steps[i]);
	free(plan->steps);
	free(plan);
}

/* The options of a subvolume mount: the suggestion's, then subvolid=. */
static char *mount_options(const struct bino_suggestion *suggestion,
			   uint64_t subvolid)
{
	const char *options = bino_suggestion_mount_options(suggestion);
	char *text;

	if (strcmp(options, "defaults") == 0)
		options = NULL;
	if (asprintf(&text, "%s%ssubvolid=%" PRIu64, options ? options : "",
		     options ? "," : "", subvolid) < 0)
		return NULL;
	return text;
}

static enum bino_error plan_add_mount(struct bino_mountplan *plan,
				      const struct bino_suggestion *suggestion,
				      size_t index)
{
	const struct bino_audit_subvol *subvol =
		bino_suggestion_subvol(suggestion, index);
	const uint8_t *uuid = bino_suggestion_fs_uuid(suggestion);
	const char *path = bino_audit_subvol_path(subvol);
	struct bino_mountplan_step *step;

	if (plan_has(plan, BINO_MOUNTPLAN_MOUNT, path))
		return BINO_OK;
	step = calloc(1, sizeof(*step));
	if (!step)
		return BINO_ERROR_NO_MEMORY;
	step->action = BINO_MOUNTPLAN_MOUNT;
	step->subvolid = bino_audit_subvol_id(subvol);
	step->has_uuid = true;
	memcpy(step->uuid, uuid, sizeof(step->uuid));
	step->path = strdup(path);
	step->source = strdup(bino_mount_source(
		bino_suggestion_mount(suggestion)));
	step->options = mount_options(suggestion, step->subvolid);
	if (!step->path || !step->source || !step->options) {
		step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	return plan_append(plan, step);
}

BINO_PUBLIC enum bino_error
bino_mountplan_add_suggestion(struct bino_mountplan *plan,
			      const struct bino_suggestion *suggestion)
{
	const struct bino_mount *fs;
	enum bino_error err = BINO_OK;
	size_t i;

	if (!plan || !suggestion)
		return BINO_ERROR_INVALID_ARGUMENT;
	fs = bino_suggestion_mount(suggestion);
	if (strcmp(bino_mount_fstype(fs), "btrfs") != 0 ||
	    !bino_suggestion_fs_uuid(suggestion))
		return BINO_OK; /* nothing a btrfs mount could fix */
	for (i = 0; !err && i < bino_suggestion_subvol_count(suggestion); i++) {
		if (!bino_suggestion_subvol_mounted(suggestion, i))
			err = plan_add_mount(plan, suggestion, i);
	}
	return err;
}

/* Whether mountinfo shows @mount's root as deleted. */
static bool mount_deleted(const struct bino_mount *mount)
{
	const char *root = bino_mount_root(mount);
	size_t len = strlen(root), suffix = strlen(DELETED_SUFFIX);

	return len >= suffix && strcmp(root + len - suffix, DELETED_SUFFIX) == 0;
}

static enum bino_error plan_add_stale(struct bino_mountplan *plan,
				      const struct bino_mount *mount)
{
	struct bino_mountplan_step *step;
	const char *root = bino_mount_root(mount);
	size_t root_len = strlen(root) - strlen(DELETED_SUFFIX);

	if (plan_has(plan, BINO_MOUNTPLAN_UMOUNT, bino_mount_target(mount)))
		return BINO_OK;
	step = calloc(1, sizeof(*step));
	if (!step)
		return BINO_ERROR_NO_MEMORY;
	step->action = BINO_MOUNTPLAN_UMOUNT;
	step->subvolid = bino_mount_subvolid(mount);
	step->path = strdup(bino_mount_target(mount));
	step->source = strdup(bino_mount_source(mount));
	/* The deleted subvolume's path in the filesystem, for the record. */
	step->options = strndup(root, root_len);
	if (!step->path || !step->source || !step->options) {
		step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	return plan_append(plan, step);
}

BINO_PUBLIC enum bino_error bino_mountplan_add_stale(struct bino_mountplan *plan,
						     const struct bino_mounts *mounts,
						     const char *path)
{
	enum bino_error err = BINO_OK;
	size_t i;

	if (!plan || !mounts || !path || path[0] != '/')
		return BINO_ERROR_INVALID_ARGUMENT;
	for (i = 0; !err && i < bino_mounts_count(mounts); i++) {
		const struct bino_mount *mount = bino_mounts_get(mounts, i);

		if (strcmp(bino_mount_fstype(mount), "btrfs") == 0 &&
		    below(bino_mount_target(mount), path) && mount_deleted(mount))
			err = plan_add_stale(plan, mount);
	}
	return err;
}

BINO_PUBLIC size_t bino_mountplan_count(const struct bino_mountplan *plan)
{
	if (!plan)
		return 0;
	return plan ? plan->n_steps : 0;
}

BINO_PUBLIC const struct bino_mountplan_step *
bino_mountplan_get(const struct bino_mountplan *plan, size_t index)
{
	if (!plan)
		return NULL;
	return plan && index < plan->n_steps ? plan->steps[index] : NULL;
}

BINO_PUBLIC enum bino_mountplan_action
bino_mountplan_step_action(const struct bino_mountplan_step *step)
{
	if (!step)
		return 0;
	return step->action;
}

BINO_PUBLIC const char *
bino_mountplan_step_path(const struct bino_mountplan_step *step)
{
	if (!step)
		return NULL;
	return step->path;
}

BINO_PUBLIC const char *
bino_mountplan_step_source(const struct bino_mountplan_step *step)
{
	if (!step)
		return NULL;
	return step->source;
}

BINO_PUBLIC const uint8_t *
bino_mountplan_step_fs_uuid(const struct bino_mountplan_step *step)
{
	if (!step)
		return NULL;
	return step->has_uuid ? step->uuid : NULL;
}

BINO_PUBLIC uint64_t
bino_mountplan_step_subvolid(const struct bino_mountplan_step *step)
{
	if (!step)
		return 0;
	return step->subvolid;
}

BINO_PUBLIC const char *
bino_mountplan_step_options(const struct bino_mountplan_step *step)
{
	if (!step)
		return NULL;
	return step->action == BINO_MOUNTPLAN_MOUNT ? step->options : NULL;
}

BINO_PUBLIC const char *
bino_mountplan_step_fs_path(const struct bino_mountplan_step *step)
{
	if (!step)
		return NULL;
	return step->action == BINO_MOUNTPLAN_UMOUNT ? step->options : NULL;
}

/* ---- applying --------------------------------------------------------- */

/* The mount(8) options that are mount(2) flags (util-linux's Linux map). */
static const struct {
	const char *name;
	unsigned long set, clear;
} flag_options[] = {
	{ "ro", MS_RDONLY, 0 },
	{ "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 },
	{ "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },
	{ "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },
	{ "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 },
	{ "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 },
	{ "mand", MS_MANDLOCK, 0 },
	{ "nomand", 0, MS_MANDLOCK },
	{ "noatime", MS_NOATIME, MS_RELATIME | MS_STRICTATIME },
	{ "atime", 0, MS_NOATIME },
	{ "nodiratime", MS_NODIRATIME, 0 },
	{ "diratime", 0, MS_NODIRATIME },
	{ "relatime", MS_RELATIME, MS_NOATIME | MS_STRICTATIME },
	{ "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, MS_NOATIME | MS_RELATIME },
	{ "nostrictatime", 0, MS_STRICTATIME },
	{ "lazytime", MS_LAZYTIME, 0 },
	{ "nolazytime", 0, MS_LAZYTIME },
	{ "silent", MS_SILENT, 0 },
	{ "loud", 0, MS_SILENT },
	{ "defaults", 0, 0 },
};

/*
 * Split @options into mount(2) flags and the filesystem's own options
 * (into @data, at least as long as @options), later options winning.
 */
static void split_options(const char *options, unsigned long *flags, char *data)
{
	size_t len = 0, i;

	*flags = 0;
	data[0] = '\0';
	while (*options) {
		size_t n = strcspn(options, ",");

		for (i = 0; i < sizeof(flag_options) / sizeof(flag_options[0]); i++) {
			if (strlen(flag_options[i].name) == n &&
			    strncmp(flag_options[i].name, options, n) == 0)
				break;
		}
		if (i < sizeof(flag_options) / sizeof(flag_options[0])) {
			*flags &= ~flag_options[i].clear;
			*flags |= flag_options[i].set;
		} else if (n) {
			if (len)
				data[len++] = ',';
			memcpy(data + len, options, n);
			len += n;
			data[len] = '\0';
		}
		options += n;
		if (*options == ',')
			options++;
	}
}

/*
 * Open the mount point of @step, which must still be the root of its
 * subvolume: never a placeholder (inode 2), a link, or another subvolume.
 * The descriptor, or -1 with errno (ESTALE when the path is not that).
 */
static int step_open_target(const struct bino_mountplan_step *step)
{
	struct stat st;
	uint64_t subvolid;
	int fd;

	fd = open(step->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0)
		goto out_close;
	if (st.st_ino != SUBVOL_ROOT_INO ||
	    bino__subvolid_ioctl(fd, &subvolid) != 0 ||
	    subvolid != step->subvolid) {
		errno = ESTALE;
		goto out_close;
	}
	return fd;

out_close:
	{
		int saved = errno;

		close(fd);
		errno = saved;
	}
	return -1;
}

static enum bino_error step_mount(const struct bino_mountplan_step *step)
{
	char target[64], *data;
	unsigned long flags;
	int fd, rc;

	fd = step_open_target(step);
	if (fd < 0)
		return BINO_ERROR_OPEN_FAILED;
	data = malloc(strlen(step->options) + 1);
	if (!data) {
		close(fd);
		return BINO_ERROR_NO_MEMORY;
	}
	split_options(step->options, &flags, data);
	snprintf(target, sizeof(target), "/proc/self/fd/%d", fd);
	rc = mount(step->source, target, "btrfs", flags, data);
	if (rc != 0) {
		int saved = errno;

		free(data);
		close(fd);
		errno = saved;
		return BINO_ERROR_MOUNT_FAILED;
	}
	free(data);
	close(fd);
	return BINO_OK;
}

BINO_PUBLIC enum bino_error
bino_mountplan_step_apply(const struct bino_mountplan_step *step)
{
	if (!step)
		return BINO_ERROR_INVALID_ARGUMENT;
	if (step->action == BINO_MOUNTPLAN_MOUNT)
		return step_mount(step);
	/*
	 * Detached: what it shows is deleted already, and a process with its
	 * working directory inside must not keep the mount in the namespace.
	 */
	if (umount2(step->path, UMOUNT_NOFOLLOW | MNT_DETACH) != 0)
		return BINO_ERROR_UMOUNT_FAILED;
	return BINO_OK;
}
