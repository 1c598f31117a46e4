/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for bino__nfs_fh_decode() (lib/probe/nfshandle.c): the bytes
 * come from an NFS server, so any of them must decode or fail cleanly,
 * never read out of bounds (ASan), and a success must agree with the
 * layout read here independently.  Built by tests/fuzz/run.sh.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nfshandle.h"

#define CHECK(cond)                                                     \
	do {                                                            \
		if (!(cond))                                            \
			abort();                                        \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* An exact-size heap copy, so ASan sees any read past the end. */
	unsigned char *bytes = malloc(size ? size : 1);
	struct bino_nfs_fh fh, again;
	uint32_t high, low;
	uint16_t server_size;
	enum bino_error err;
	int errnum;

	if (!bytes)
		return 0;
	memcpy(bytes, data, size);
	err = bino__nfs_fh_decode(bytes, size, &fh, &errnum);
	CHECK(err == BINO_OK || err == BINO_ERROR_FILE_HANDLE_FAILED);
	if (err != BINO_OK) {
		CHECK(errnum == EINVAL || errnum == EOPNOTSUPP);
		goto out;
	}
	/* Deterministic. */
	CHECK(bino__nfs_fh_decode(bytes, size, &again, &errnum) == BINO_OK);
	CHECK(memcmp(&fh, &again, sizeof(fh)) == 0);
	/* A success needs the client header, the size and the knfsd header. */
	CHECK(size >= 12 + 2 + 4);
	memcpy(&high, bytes, 4);
	memcpy(&low, bytes + 4, 4);
	CHECK(fh.fileid == ((uint64_t)high << 32 | low));
	memcpy(&server_size, bytes + 12, 2);
	CHECK((size_t)server_size + 14 <= size);
	CHECK(bytes[14] == 1);
	CHECK(fh.fsid_type == bytes[16] && fh.fileid_type == bytes[17]);
	switch (fh.kind) {
	case BINO_NFS_FH_EXPORT_ROOT:
		CHECK(fh.fileid_type == 0);
		break;
	case BINO_NFS_FH_OTHER:
		CHECK(fh.fileid_type != 0 &&
		      (fh.fileid_type < 0x4d || fh.fileid_type > 0x4f));
		break;
	case BINO_NFS_FH_BTRFS: {
		/* The fileid is the last 20+ bytes of the server handle. */
		static const size_t fsid_len[] = { 8, 4, 12, 8, 8, 8, 16, 24 };
		size_t offset;

		CHECK(fh.fileid_type >= 0x4d && fh.fileid_type <= 0x4f);
		CHECK(fh.fsid_type < 8);
		offset = 4 + fsid_len[fh.fsid_type];
		CHECK(offset + 20 <= server_size);
		CHECK(fh.objectid == le64(bytes + 14 + offset));
		CHECK(fh.root_objectid == le64(bytes + 14 + offset + 8));
		break;
	}
	default:
		CHECK(0);
	}
out:
	free(bytes);
	return 0;
}
