/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One file handle from name_to_handle_at(), in a buffer of the largest size
 * the kernel returns: the one place that sizes that buffer, for the btrfs
 * subvolume lookup (subvol.c) and the NFS handle decoder (nfshandle.c).
 */
#ifndef BINO_FHANDLE_H
#define BINO_FHANDLE_H

#include <fcntl.h>

union bino__fhandle {
	struct file_handle handle;
	unsigned char bytes[sizeof(struct file_handle) + MAX_HANDLE_SZ];
};

/*
 * name_to_handle_at(@dirfd, @name, ..., @at_flags) into @ret (its handle is
 * @ret->handle): a thin wrapper of that one call, 0 or -1 with errno.
 */
int bino__fhandle_at(int dirfd, const char *name, int at_flags,
		     union bino__fhandle *ret);

#endif
