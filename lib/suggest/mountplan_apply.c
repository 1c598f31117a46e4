/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Carrying out one step of a plan (bino_mountplan_step_apply()), the one
 * call that changes the system: the mount point is resolved as root must
 * where users own the directories (step_open_*()), checked to be exactly
 * what was planned (the subvolume's root by ID, UUID and owner; or the
 * stale mount by its mount ID), and acted on through /proc/self/fd, never
 * by its path again; a subvolume deleted meanwhile is told apart from a
 * failure.  Apart from planning, which only reads.
 */
#include "mountplan_state.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include "resolve.h"
#include "subvol.h"

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
 * Open the audited directory @step lies below, which must be the one the
 * plan saw (ESTALE otherwise, or if the plan could not open it), then the mount point from it with @flags:
 * beneath it, through no symbolic link.  The descriptor, or -1 with errno.
 */
static int step_open(const struct bino_mountplan_step *step, int flags)
{
	struct stat st;
	int base_fd, fd;

	if (!step->has_base_id) {
		errno = ESTALE;
		return -1;
	}
	base_fd = bino__resolve_no_symlinks(step->base, O_PATH);
	if (base_fd < 0)
		return -1;
	if (fstat(base_fd, &st) != 0) {
		bino__close_keep_errno(base_fd);
		return -1;
	}
	if (st.st_dev != step->base_dev || st.st_ino != step->base_ino) {
		close(base_fd);
		errno = ESTALE;
		return -1;
	}
	fd = bino__resolve_beneath(base_fd,
				   bino__plan_path_below(step->path, step->base),
				   flags);
	bino__close_keep_errno(base_fd);
	return fd;
}

/*
 * Whether the open mount point @fd of a mount @step is the root of the
 * planned subvolume itself: inode 256 of that subvolume ID, on the
 * filesystem of that UUID (another btrfs has the same IDs), owned as
 * planned.  Never a placeholder (inode 2), a directory inside it, or
 * another subvolume.  False with errno (ESTALE when it is not that
 * directory).
 */
static bool step_is_subvol(const struct bino_mountplan_step *step, int fd)
{
	struct stat st;
	uint64_t subvolid;
	uint8_t uuid[16];

	if (fstat(fd, &st) != 0)
		return false;
	if (st.st_ino != SUBVOL_ROOT_INO || st.st_uid != step->owner ||
	    bino__subvolid_ioctl(fd, &subvolid) != 0 ||
	    subvolid != step->subvolid || bino__fs_uuid_fd(fd, uuid) != 0 ||
	    memcmp(uuid, step->uuid, sizeof(uuid)) != 0) {
		errno = ESTALE;
		return false;
	}
	return true;
}

/*
 * Whether the open mount point @fd of an unmount @step shows the very
 * mount the plan read from mountinfo (its mount ID); false with errno
 * (ESTALE when it is another).
 */
static bool step_is_mount(const struct bino_mountplan_step *step, int fd)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID,
		  &stx) != 0)
		return false;
	if (!(stx.stx_mask & STATX_MNT_ID) || stx.stx_mnt_id != step->mount_id) {
		errno = ESTALE;
		return false;
	}
	return true;
}

/*
 * Open the mount point of @step with @flags (step_open()) and keep it only
 * where @is_planned says it is what the plan saw: the descriptor, or -1
 * with errno, as openat(2).
 */
static int step_open_checked(const struct bino_mountplan_step *step, int flags,
			     bool (*is_planned)(const struct bino_mountplan_step *,
						int))
{
	int fd = step_open(step, flags);

	if (fd < 0)
		return -1;
	if (is_planned(step, fd))
		return fd;
	bino__close_keep_errno(fd);
	return -1;
}

/* "/proc/self/fd/N": the verified directory itself, as a path. */
static void fd_path(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/*
 * Whether subvolume @id of the filesystem holding the open file @fd (not
 * O_PATH) no longer exists: the root tree has no ROOT_BACKREF item for it.
 * Btrfs removes it in the transaction that deletes the subvolume, long
 * before the cleaner drops the subvolume's tree.  False when it exists, and
 * when the tree cannot be searched (EPERM without CAP_SYS_ADMIN): nothing
 * is concluded then.
 */
static bool subvol_deleted(int fd, uint64_t id)
{
	struct btrfs_ioctl_search_args args = {
		.key = {
			.tree_id = BTRFS_ROOT_TREE_OBJECTID,
			.min_objectid = id, .max_objectid = id,
			.min_type = BTRFS_ROOT_BACKREF_KEY,
			.max_type = BTRFS_ROOT_BACKREF_KEY,
			.max_offset = UINT64_MAX, .max_transid = UINT64_MAX,
			.nr_items = 1,
		},
	};

	return ioctl(fd, BTRFS_IOC_TREE_SEARCH, &args) == 0 &&
	       args.key.nr_items == 0;
}

/*
 * Whether the subvolume of the mount @step was deleted, asked of the
 * audited directory the plan saw (its identity and filesystem UUID
 * checked): false when that cannot be told.
 */
static bool step_subvol_deleted(const struct bino_mountplan_step *step)
{
	struct stat st;
	uint8_t uuid[16];
	bool deleted = false;
	int fd;

	if (!step->has_base_id)
		return false;
	fd = bino__resolve_no_symlinks(step->base, O_RDONLY | O_DIRECTORY |
				       O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && st.st_dev == step->base_dev &&
	    st.st_ino == step->base_ino && bino__fs_uuid_fd(fd, uuid) == 0 &&
	    memcmp(uuid, step->uuid, sizeof(uuid)) == 0)
		deleted = subvol_deleted(fd, step->subvolid);
	close(fd);
	return deleted;
}

/*
 * @err with @cause in *@errnum, unless the subvolume of the mount @step was
 * deleted (@cause ENOENT or ESTALE: its path gone or leading to something
 * else, a new subvolume of the same name among them): then
 * BINO_ERROR_SUBVOL_DELETED with ENOENT, nothing to mount.
 */
static enum bino_error step_gone_or(const struct bino_mountplan_step *step,
				    enum bino_error err, int cause, int *errnum)
{
	if ((cause == ENOENT || cause == ESTALE) && step_subvol_deleted(step)) {
		*errnum = ENOENT;
		return BINO_ERROR_SUBVOL_DELETED;
	}
	*errnum = cause;
	return err;
}

/* The internal shape (base/internal.h): the cause in *@errnum. */
static enum bino_error step_mount(const struct bino_mountplan_step *step,
				  int *errnum)
{
	char target[64], *data;
	unsigned long flags;
	int fd, rc, cause;

	fd = step_open_checked(step, O_RDONLY, step_is_subvol);
	if (fd < 0)
		return step_gone_or(step, BINO_ERROR_OPEN_FAILED, errno, errnum);
	data = malloc(strlen(step->options) + 1);
	if (!data) {
		close(fd);
		*errnum = ENOMEM;
		return BINO_ERROR_NO_MEMORY;
	}
	split_options(step->options, &flags, data);
	fd_path(target, sizeof(target), fd);
	rc = mount(step->source, target, "btrfs", flags, data);
	cause = errno;
	free(data);
	/*
	 * Deleted after it was opened: btrfs finds no subvolume of that ID,
	 * or the VFS no name for the directory (ENOENT either way).
	 */
	if (rc != 0 && cause == ENOENT && subvol_deleted(fd, step->subvolid)) {
		close(fd);
		*errnum = ENOENT;
		return BINO_ERROR_SUBVOL_DELETED;
	}
	close(fd);
	*errnum = cause;
	return rc == 0 ? BINO_OK : BINO_ERROR_MOUNT_FAILED;
}

/* The internal shape (base/internal.h): the cause in *@errnum. */
static enum bino_error step_umount(const struct bino_mountplan_step *step,
				   int *errnum)
{
	char target[64];
	int fd, rc;

	fd = step_open_checked(step, O_PATH, step_is_mount);
	if (fd < 0) {
		*errnum = errno;
		return BINO_ERROR_OPEN_FAILED;
	}
	fd_path(target, sizeof(target), fd);
	/*
	 * The magic link is followed to the descriptor's mount (so no
	 * UMOUNT_NOFOLLOW, which would look at the link itself).  Detached:
	 * what it shows is deleted already, a process working inside must
	 * not keep it in the namespace, and our own descriptor holds it.
	 */
	rc = umount2(target, MNT_DETACH);
	*errnum = errno;
	close(fd);
	return rc == 0 ? BINO_OK : BINO_ERROR_UMOUNT_FAILED;
}

BINO_PUBLIC enum bino_error
bino_mountplan_step_apply(const struct bino_mountplan_step *step)
{
	if (!step)
		return BINO_ERROR_INVALID_ARGUMENT;
	enum bino_error err = BINO_OK;
	int errnum = 0;

	switch (step->action) {
	case BINO_MOUNTPLAN_MOUNT:
		err = step_mount(step, &errnum);
		break;
	case BINO_MOUNTPLAN_UMOUNT:
		err = step_umount(step, &errnum);
		break;
	case BINO_MOUNTPLAN_SKIP:
		break;
	}
	/* The seam: only here does the cause become errno. */
	if (err != BINO_OK)
		errno = errnum;
	return err;
}
