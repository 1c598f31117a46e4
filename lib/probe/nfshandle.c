/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * An NFS client shows one st_dev for a whole export, hiding the btrfs
 * subvolume behind each inode.  The Linux client's name_to_handle_at()
 * returns the server's file handle embedded after a small header, and knfsd's
 * handle for a btrfs inode ends in btrfs' own fileid, which holds the
 * subvolume (root objectid).  This file decodes that, defensively: the bytes
 * come from a server.
 *
 * Client handle (fs/nfs/export.c): u32 fileid high, u32 fileid low, u32 file
 * type, then struct nfs_fh { u16 size; u8 data[size]; } in host order.
 * knfsd handle (fs/nfsd/nfsfh.h): u8 version (1), auth type, fsid type,
 * fileid type; the fsid (length by type); the fileid (by type: btrfs' are
 * 0x4d..0x4f, u64 objectid, u64 root objectid, u32 generation, ...).
 */
#include "nfshandle.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "btrfsconst.h"
#include "fhandle.h"

#define CLIENT_HEADER_SIZE 12 /* fileid high, fileid low, type */
#define KNFSD_HEADER_SIZE 4
#define KNFSD_FH_VERSION 1
#define FILEID_ROOT 0 /* the handle names the export, not an inode */

/* Length of the fsid part for each knfsd fsid type; 0 for unknown types. */
static size_t knfsd_fsid_length(uint8_t fsid_type)
{
	switch (fsid_type) {
	case 0: /* FSID_DEV */
		return 8;
	case 1: /* FSID_NUM */
		return 4;
	case 2: /* FSID_MAJOR_MINOR */
		return 12;
	case 3: /* FSID_ENCODE_DEV */
		return 8;
	case 4: /* FSID_UUID4_INUM */
		return 8;
	case 5: /* FSID_UUID8 */
		return 8;
	case 6: /* FSID_UUID16 */
		return 16;
	case 7: /* FSID_UUID16_INUM */
		return 24;
	default:
		return 0;
	}
}

static uint64_t load_le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t load_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* Fail a decode: not a handle this knows, the cause in *@errnum. */
static enum bino_error fh_refused(int *errnum, int why)
{
	*errnum = why;
	return BINO_ERROR_FILE_HANDLE_FAILED;
}

enum bino_error bino__nfs_fh_decode(const unsigned char *bytes, size_t len,
				    struct bino_nfs_fh *ret, int *errnum)
{
	uint32_t high, low;
	uint16_t server_size;
	const unsigned char *server;
	size_t fsid_length, fileid_offset;

	memset(ret, 0, sizeof(*ret));
	if (len < CLIENT_HEADER_SIZE + sizeof(server_size)) 
		return fh_refused(errnum, EINVAL);
	memcpy(&high, bytes, sizeof(high));
	memcpy(&low, bytes + 4, sizeof(low));
	ret->fileid = (uint64_t)high << 32 | low;
	memcpy(&server_size, bytes + CLIENT_HEADER_SIZE, sizeof(server_size));
	server = bytes + CLIENT_HEADER_SIZE + sizeof(server_size);
	if (server_size > len - CLIENT_HEADER_SIZE - sizeof(server_size)) 
		return fh_refused(errnum, EINVAL);
	if (server_size < KNFSD_HEADER_SIZE || server[0] != KNFSD_FH_VERSION) 
		return fh_refused(errnum, EOPNOTSUPP);
	ret->fsid_type = server[2];
	ret->fileid_type = server[3];
	fsid_length = knfsd_fsid_length(ret->fsid_type);
	if (fsid_length == 0) 
		return fh_refused(errnum, EOPNOTSUPP);
	fileid_offset = KNFSD_HEADER_SIZE + fsid_length;
	if (fileid_offset > server_size) 
		return fh_refused(errnum, EINVAL);
	switch (ret->fileid_type) {
	case FILEID_ROOT:
		ret->kind = BINO_NFS_FH_EXPORT_ROOT;
		return BINO_OK;
	case FILEID_BTRFS_WITHOUT_PARENT:
	case FILEID_BTRFS_WITH_PARENT:
	case FILEID_BTRFS_WITH_PARENT_ROOT:
		break;
	default:
		ret->kind = BINO_NFS_FH_OTHER;
		return BINO_OK;
	}
	if (server_size - fileid_offset < BTRFS_FID_MIN_SIZE) 
		return fh_refused(errnum, EINVAL);
	ret->kind = BINO_NFS_FH_BTRFS;
	ret->objectid = load_le64(server + fileid_offset +
				  BTRFS_FID_OBJECTID_OFFSET);
	ret->root_objectid = load_le64(server + fileid_offset +
				       BTRFS_FID_ROOT_OFFSET);
	ret->generation = load_le32(server + fileid_offset +
				    BTRFS_FID_GEN_OFFSET);
	return BINO_OK;
}

enum bino_error bino__nfs_fh_of(int dirfd, const char *name, int at_flags,
				struct bino_nfs_fh *ret, int *errnum)
{
	union bino__fhandle fh;

	if (bino__fhandle_at(dirfd, name, at_flags, &fh) != 0)
		return fh_refused(errnum, errno);
	return bino__nfs_fh_decode(fh.handle.f_handle,
				   fh.handle.handle_bytes, ret, errnum);
}
