/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Decoding NFS client file handles.  The byte strings are real: captured by
 * tests/vm/probe on a Linux 6.1 client of a knfsd btrfs export (see
 * tests/vm/README.md), with the server's `btrfs inspect-internal rootid`.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <string.h>

#include "nfshandle.h"

/* /mnt/v3/spool/d0/f0, default export (fsid type 7): inode 258, rootid 257. */
static const unsigned char uuid_export_file[] = {
	0x00, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00,
	0x30, 0x00, 0x01, 0x00, 0x07, 0x4d, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0xa8, 0xda, 0x55, 0xfa, 0x8e, 0xc4, 0xb0, 0xff, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00,
	0x00, 0x00, 0x00, 0x00,
};

/* The same file exported with fsid=7 (fsid type 1, a 4-byte fsid). */
static const unsigned char fsid_num_export_file[] = {
	0x00, 0x00, 0x00, 0x00, 0x02, 0x01, 0x00, 0x00, 0x00, 0x80, 0x00, 0x00,
	0x1c, 0x00, 0x01, 0x00, 0x01, 0x4d, 0x07, 0x00, 0x00, 0x00, 0x02, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00,
};

Test(nfs_fh_decode, reads_btrfs_subvolume_after_a_uuid_fsid)
{
	struct bino_nfs_fh fh;
	int errnum;

	cr_assert_eq(bino__nfs_fh_decode(uuid_export_file,
					 sizeof(uuid_export_file), &fh, &errnum),
		     BINO_OK);
	cr_assert_eq(fh.kind, BINO_NFS_FH_BTRFS);
	cr_assert_eq(fh.fsid_type, 7);
	cr_assert_eq(fh.fileid_type, 0x4d);
	cr_assert_eq(fh.fileid, 258);
	cr_assert_eq(fh.objectid, 258);
	cr_assert_eq(fh.root_objectid, 257);
	cr_assert_eq(fh.generation, 9);
}

Test(nfs_fh_decode, reads_btrfs_subvolume_after_a_numeric_fsid)
{
	struct bino_nfs_fh fh;
	int errnum;

	cr_assert_eq(bino__nfs_fh_decode(fsid_num_export_file,
					 sizeof(fsid_num_export_file), &fh, &errnum),
		     BINO_OK);
	cr_assert_eq(fh.kind, BINO_NFS_FH_BTRFS);
	cr_assert_eq(fh.fsid_type, 1);
	cr_assert_eq(fh.objectid, 258);
	cr_assert_eq(fh.root_objectid, 257);
}

Test(nfs_fh_decode, recognises_the_export_root_handle)
{
	unsigned char root[sizeof(fsid_num_export_file)];
	struct bino_nfs_fh fh;
	int errnum;

	memcpy(root, fsid_num_export_file, sizeof(root));
	root[17] = 0; /* FILEID_ROOT: the fileid part names the export */
	root[12] = 8; /* header and fsid only */
	cr_assert_eq(bino__nfs_fh_decode(root, 14 + 8, &fh, &errnum),
		     BINO_OK);
	cr_assert_eq(fh.kind, BINO_NFS_FH_EXPORT_ROOT);
}

Test(nfs_fh_decode, rejects_a_server_size_beyond_the_bytes)
{
	struct bino_nfs_fh fh;
	int errnum;

	cr_assert_eq(bino__nfs_fh_decode(uuid_export_file, 40, &fh, &errnum),
		     BINO_ERROR_FILE_HANDLE_FAILED);
	cr_assert_eq(errnum, EINVAL);
}

Test(nfs_fh_decode, rejects_a_truncated_btrfs_fileid)
{
	unsigned char cut[sizeof(fsid_num_export_file)];
	struct bino_nfs_fh fh;
	int errnum;

	memcpy(cut, fsid_num_export_file, sizeof(cut));
	cut[12] = 8 + 19; /* one byte short of objectid, root, generation */
	cr_assert_eq(bino__nfs_fh_decode(cut, sizeof(cut), &fh, &errnum),
		     BINO_ERROR_FILE_HANDLE_FAILED);
	cr_assert_eq(errnum, EINVAL);
}

Test(nfs_fh_decode, rejects_handles_that_are_not_knfsd_version_1)
{
	unsigned char other[sizeof(fsid_num_export_file)];
	struct bino_nfs_fh fh;
	int errnum;

	memcpy(other, fsid_num_export_file, sizeof(other));
	other[14] = 2;
	cr_assert_eq(bino__nfs_fh_decode(other, sizeof(other), &fh, &errnum),
		     BINO_ERROR_FILE_HANDLE_FAILED);
	cr_assert_eq(errnum, EOPNOTSUPP);
}

Test(nfs_fh_decode, rejects_unknown_fsid_types)
{
	unsigned char other[sizeof(fsid_num_export_file)];
	struct bino_nfs_fh fh;
	int errnum;

	memcpy(other, fsid_num_export_file, sizeof(other));
	other[16] = 9;
	cr_assert_eq(bino__nfs_fh_decode(other, sizeof(other), &fh, &errnum),
		     BINO_ERROR_FILE_HANDLE_FAILED);
	cr_assert_eq(errnum, EOPNOTSUPP);
}

Test(nfs_fh_decode, reports_other_filesystems_fileids_as_other)
{
	unsigned char other[sizeof(fsid_num_export_file)];
	struct bino_nfs_fh fh;
	int errnum;

	memcpy(other, fsid_num_export_file, sizeof(other));
	other[17] = 1; /* FILEID_INO32_GEN, as ext4 exports use */
	cr_assert_eq(bino__nfs_fh_decode(other, sizeof(other), &fh, &errnum),
		     BINO_OK);
	cr_assert_eq(fh.kind, BINO_NFS_FH_OTHER);
}

Test(nfs_fh_decode, rejects_a_handle_shorter_than_the_client_header)
{
	struct bino_nfs_fh fh;
	int errnum;

	cr_assert_eq(bino__nfs_fh_decode(uuid_export_file, 13, &fh, &errnum),
		     BINO_ERROR_FILE_HANDLE_FAILED);
	cr_assert_eq(errnum, EINVAL);
}
