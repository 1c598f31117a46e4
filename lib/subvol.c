/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Subvolume lookups.  This is the only file that includes <btrfsutil.h>, so
 * it is the one place to adapt when a distribution's libbtrfsutil differs
 * (Debian 12 ships 1.2: the classic *_fd names are used).
 */
#include "subvol.h"

#include <btrfsutil.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

/* From the kernel's fs/btrfs/export.h: handle types and the fid layout. */
#define FILEID_BTRFS_WITHOUT_PARENT 0x4d
#define FILEID_BTRFS_WITH_PARENT 0x4e
#define FILEID_BTRFS_WITH_PARENT_ROOT 0x4f
#define BTRFS_FID_ROOT_OFFSET 8 /* u64 objectid, then u64 root_objectid */

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
	union {
		struct file_handle handle;
		unsigned char bytes[sizeof(struct file_handle) + MAX_HANDLE_SZ];
	} buffer;
	int mount_id;

	buffer.handle.handle_bytes = MAX_HANDLE_SZ;
	if (name_to_handle_at(dirfd, name, &buffer.handle, &mount_id,
			      at_flags) != 0)
		return -1;
	switch (buffer.handle.handle_type) {
	case FILEID_BTRFS_WITHOUT_PARENT:
	case FILEID_BTRFS_WITH_PARENT:
	case FILEID_BTRFS_WITH_PARENT_ROOT:
		break;
	default:
		errno = EOPNOTSUPP;
		return -1;
	}
	if (buffer.handle.handle_bytes < BTRFS_FID_ROOT_OFFSET + sizeof(*ret)) {
		errno = EOPNOTSUPP;
		return -1;
	}
	memcpy(ret, buffer.handle.f_handle + BTRFS_FID_ROOT_OFFSET,
	       sizeof(*ret));
	return 0;
}
