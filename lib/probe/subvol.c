/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Subvolume lookups and listings.  This is the only file that includes <btrfsutil.h>, so
 * it is the one place to adapt when a distribution's libbtrfsutil differs
 * (Debian 12 ships 1.2: the classic *_fd names are used).
 */
#include "subvol.h"

#include <btrfsutil.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "btrfsconst.h"
#include "fhandle.h"

int bino__subvolid_ioctl(int fd, uint64_t *ret)
{
	enum btrfs_util_error err;

	/* libbtrfsutil leaves errno set from the failing ioctl. */
	err = btrfs_util_subvolume_id_fd(fd, ret);
	if (err == BTRFS_UTIL_OK)
		return 0;
	if (errno == 0)
		errno = EIO;
	return -1;
}

int bino__subvolid_file_handle(int dirfd, const char *name, int at_flags,
			       uint64_t *ret)
{
	union bino__fhandle fh;

	if (bino__fhandle_at(dirfd, name, at_flags, &fh) != 0)
		return -1;
	switch (fh.handle.handle_type) {
	case FILEID_BTRFS_WITHOUT_PARENT:
	case FILEID_BTRFS_WITH_PARENT:
	case FILEID_BTRFS_WITH_PARENT_ROOT:
		break;
	default:
		errno = EOPNOTSUPP;
		return -1;
	}
	if (fh.handle.handle_bytes < BTRFS_FID_ROOT_OFFSET + sizeof(*ret)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	memcpy(ret, fh.handle.f_handle + BTRFS_FID_ROOT_OFFSET,
	       sizeof(*ret));
	return 0;
}

#define BTRFS_ROOT_SUBVOL_RDONLY (1ULL << 0)

static void subvol_info_copy(struct bino__subvol_info *ret,
			     const struct btrfs_util_subvolume_info *info)
{
	static const uint8_t zero_uuid[16];

	memset(ret, 0, sizeof(*ret));
	ret->id = info->id;
	ret->parent_id = info->parent_id;
	ret->read_only = info->flags & BTRFS_ROOT_SUBVOL_RDONLY;
	memcpy(ret->uuid, info->uuid, sizeof(ret->uuid));
	memcpy(ret->parent_uuid, info->parent_uuid, sizeof(ret->parent_uuid));
	ret->is_snapshot = memcmp(info->parent_uuid, zero_uuid,
				  sizeof(zero_uuid)) != 0;
}

/*
 * BTRFS_IOC_GET_SUBVOL_INFO answers for the subvolume holding any inode,
 * unprivileged (Linux 4.18).  libbtrfsutil's subvolume_info with ID 0 first
 * insists that @fd be a subvolume's root (EINVAL for a directory below it),
 * so it is used only where the ioctl is missing, with the ID given (which
 * needs CAP_SYS_ADMIN).
 */
int bino__subvol_info_fd(int fd, struct bino__subvol_info *ret)
{
	static const uint8_t zero_uuid[16];
	struct btrfs_ioctl_get_subvol_info_args args;
	struct btrfs_util_subvolume_info info;
	uint64_t id;

	memset(&args, 0, sizeof(args));
	/* It may return 1 on success (a tree search's "not exact"). */
	if (ioctl(fd, BTRFS_IOC_GET_SUBVOL_INFO, &args) >= 0) {
		memset(ret, 0, sizeof(*ret));
		ret->id = args.treeid;
		ret->parent_id = args.parent_id;
		ret->read_only = args.flags & BTRFS_ROOT_SUBVOL_RDONLY;
		memcpy(ret->uuid, args.uuid, sizeof(ret->uuid));
		memcpy(ret->parent_uuid, args.parent_uuid,
		       sizeof(ret->parent_uuid));
		ret->is_snapshot = memcmp(args.parent_uuid, zero_uuid,
					  sizeof(zero_uuid)) != 0;
		return 0;
	}
	if (errno != ENOTTY)
		return -1;
	if (bino__subvolid_ioctl(fd, &id) != 0)
		return -1;
	errno = 0;
	if (btrfs_util_subvolume_info_fd(fd, id, &info) != BTRFS_UTIL_OK) {
		if (errno == 0)
			errno = EIO;
		return -1;
	}
	subvol_info_copy(ret, &info);
	return 0;
}

int bino__subvol_list(const char *path, bool whole_fs,
		      bino__subvol_list_fn *fn, void *data)
{
	struct btrfs_util_subvolume_iterator *iter;
	struct btrfs_util_subvolume_info info;
	struct bino__subvol_info copy;
	enum btrfs_util_error err;
	char *sub_path;
	int ret = 0;

	errno = 0;
	err = btrfs_util_create_subvolume_iterator(
		path, whole_fs ? BTRFS_FS_TREE_OBJECTID : 0, 0, &iter);
	if (err != BTRFS_UTIL_OK)
		goto out_errno;
	for (;;) {
		errno = 0;
		err = btrfs_util_subvolume_iterator_next_info(iter, &sub_path,
							      &info);
		if (err == BTRFS_UTIL_ERROR_STOP_ITERATION)
			break;
		if (err != BTRFS_UTIL_OK) {
			btrfs_util_destroy_subvolume_iterator(iter);
			goto out_errno;
		}
		subvol_info_copy(&copy, &info);
		ret = fn(sub_path, &copy, data);
		free(sub_path);
		if (ret)
			break;
	}
	btrfs_util_destroy_subvolume_iterator(iter);
	return ret;

out_errno:
	if (errno == 0)
		errno = EIO;
	return -1;
}

int bino__fs_uuid_fd(int fd, uint8_t uuid[16])
{
	struct btrfs_ioctl_fs_info_args args;

	memset(&args, 0, sizeof(args));
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &args) != 0)
		return -1;
	memcpy(uuid, args.fsid, 16);
	return 0;
}
