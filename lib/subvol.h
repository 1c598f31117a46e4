/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Subvolume ids from the btrfs ioctls and from file handles. */
#ifndef BINO_SUBVOL_H
#define BINO_SUBVOL_H

#include <stdint.h>

/* The subvolume of the open file @fd, by libbtrfsutil; 0 or -1 with errno. */
int bino__subvolid_ioctl(int fd, uint64_t *ret);

/*
 * The subvolume of @name in @dirfd, from the root objectid of its btrfs file
 * handle.  @at_flags may hold AT_SYMLINK_FOLLOW and AT_EMPTY_PATH.
 * Returns 0, or -1 with errno (EOPNOTSUPP when the handle is not btrfs').
 */
int bino__subvolid_file_handle(int dirfd, const char *name, int at_flags,
			       uint64_t *ret);

#endif
