/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Subvolume ids from the btrfs ioctls and from file handles. */
#ifndef BINO_SUBVOL_H
#define BINO_SUBVOL_H

#include <stdbool.h>
#include <stdint.h>

#include "btrfsino.h"

/*
 * The subvolume of the open file @fd, by libbtrfsutil (one ioctl): a thin
 * wrapper, 0 or -1 with errno.
 */
int bino__subvolid_ioctl(int fd, uint64_t *ret);

/*
 * The subvolume of @name in @dirfd, from the root objectid of its btrfs file
 * handle.  @at_flags may hold AT_SYMLINK_FOLLOW and AT_EMPTY_PATH.
 * BINO_ERROR_FILE_HANDLE_FAILED with the cause in *@errnum (EOPNOTSUPP when
 * the handle is not btrfs').
 */
BINO_WARN_UNUSED
enum bino_error bino__subvolid_file_handle(int dirfd, const char *name,
					   int at_flags, uint64_t *ret,
					   int *errnum);

/* What the audit needs to know of a subvolume. */
struct bino__subvol_info {
	uint64_t id;
	uint64_t parent_id;
	bool read_only;
	bool is_snapshot; /* parent_uuid is not all zero */
	uint8_t uuid[16];
	uint8_t parent_uuid[16];
};

/*
 * The subvolume holding the open file @fd, which need not be its root
 * (BTRFS_IOC_GET_SUBVOL_INFO: no privilege needed on Linux 4.18 and later):
 * on an older kernel, libbtrfsutil's equivalent (the subvolume's ID, then
 * its root item: CAP_SYS_ADMIN).  BINO_OK, or BINO_ERROR_SUBVOL_INFO_FAILED
 * with the cause in @errnum (ENOTTY: not on btrfs).
 */
BINO_WARN_UNUSED
enum bino_error bino__subvol_info_fd(int fd, struct bino__subvol_info *ret,
				     int *errnum);

/*
 * Called by bino__subvol_list() for each subvolume; @path is relative to the
 * subvolume the listing started at.  Anything but BINO_OK stops the listing
 * and is returned by it (BINO_ERROR_STOP_ITERATION: found what it wanted).
 */
typedef enum bino_error bino__subvol_list_fn(const char *path,
					     const struct bino__subvol_info *info,
					     void *data);

/*
 * List the subvolumes below the one holding @path: the whole filesystem
 * (paths relative to the top level, needs CAP_SYS_ADMIN) when @whole_fs,
 * else those below @path's own subvolume that the caller can reach (no
 * privilege needed on Linux 4.18 and later).  What @fn returned, or
 * BINO_ERROR_SUBVOL_INFO_FAILED with the cause in *@errnum.
 */
BINO_WARN_UNUSED
enum bino_error bino__subvol_list(const char *path, bool whole_fs,
				  bino__subvol_list_fn *fn, void *data,
				  int *errnum);

/*
 * List the subvolumes below the one whose root directory is the open file
 * @fd, with paths relative to that root, a parent before those below it:
 * all of them, whatever their paths' length, with CAP_SYS_ADMIN (the root
 * tree searched; @fn's info then has only id and parent_id), else those
 * the caller can reach (libbtrfsutil's unprivileged iterator, Linux 4.18
 * and later).  What @fn returned, BINO_ERROR_SUBVOLID_FAILED or
 * _SUBVOL_INFO_FAILED with the cause in *@errnum, or _NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino__subvol_list_fd(int fd, bino__subvol_list_fn *fn,
				     void *data, int *errnum);

/*
 * For each of the @n subvolume IDs @ids below the subvolume whose root
 * directory is the open file @fd, call @fn with its path relative to that
 * root (read up its links in the root tree: CAP_SYS_ADMIN), in the order
 * given; an ID not below it (or deleted, or @fd's own) is passed over.
 * What @fn returned, BINO_ERROR_SUBVOLID_FAILED with the cause in
 * *@errnum, or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino__subvol_paths_fd(int fd, const uint64_t *ids, size_t n,
				      bino__subvol_list_fn *fn, void *data,
				      int *errnum);

/*
 * The UUID of the btrfs filesystem holding the open file @fd, as blkid and
 * "UUID=" in fstab(5) name it (BTRFS_IOC_FS_INFO, no privilege needed): a
 * thin wrapper of that one ioctl, 0 or -1 with errno.
 */
int bino__fs_uuid_fd(int fd, uint8_t uuid[16]);

#endif
