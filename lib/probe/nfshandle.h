/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Decoding the file handles an NFS client mount returns. */
#ifndef BINO_NFSHANDLE_H
#define BINO_NFSHANDLE_H

#include <stddef.h>
#include <stdint.h>

#include "btrfsino.h"

enum bino_nfs_fh_kind {
	BINO_NFS_FH_BTRFS, /* knfsd handle of a btrfs inode: fields valid */
	BINO_NFS_FH_EXPORT_ROOT, /* the export's root: no inode fields */
	BINO_NFS_FH_OTHER, /* a well-formed handle of something else */
};

struct bino_nfs_fh {
	enum bino_nfs_fh_kind kind;
	uint64_t fileid; /* the client's own copy of the inode number */
	uint8_t fsid_type;
	uint8_t fileid_type;
	uint64_t objectid; /* btrfs inode number */
	uint64_t root_objectid; /* btrfs subvolume id */
	uint32_t generation;
};

/*
 * Decode the bytes of a Linux NFS client's file handle (from
 * name_to_handle_at): the client's header, then the server's handle, which
 * for knfsd is a version-1 handle (fsid, then the filesystem's fileid).
 * BINO_ERROR_FILE_HANDLE_FAILED with *@errnum EINVAL (malformed) or
 * EOPNOTSUPP (not a knfsd version-1 handle).  Never reads outside @len
 * bytes.
 */
BINO_WARN_UNUSED
enum bino_error bino__nfs_fh_decode(const unsigned char *bytes, size_t len,
				    struct bino_nfs_fh *ret, int *errnum);

/*
 * name_to_handle_at() and bino__nfs_fh_decode(): BINO_ERROR_FILE_HANDLE_FAILED
 * with the cause in *@errnum (name_to_handle_at's errno, or the decode's).
 */
BINO_WARN_UNUSED
enum bino_error bino__nfs_fh_of(int dirfd, const char *name, int at_flags,
				struct bino_nfs_fh *ret, int *errnum);

#endif
