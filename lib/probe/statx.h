/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * statx(2) with the fields newer than Debian 12's headers: STATX_SUBVOL
 * (Linux 6.10) is defined here and its field read from our own copy of the
 * kernel's struct layout, so the library builds on old headers and uses the
 * field where the running kernel fills it.
 */
#ifndef BINO_STATX_H
#define BINO_STATX_H

#include <stdbool.h>
#include <stdint.h>

#define BINO_STATX_BASIC_STATS 0x000007ffU
#define BINO_STATX_BTIME 0x00000800U
#define BINO_STATX_MNT_ID 0x00001000U
#define BINO_STATX_SUBVOL 0x00008000U
#define BINO_STATX_ATTR_MOUNT_ROOT 0x00002000ULL

/* The kernel's struct statx as of Linux 6.10; 256 bytes, stable ABI. */
struct bino_kstatx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t reserved;
};

struct bino_kstatx {
	uint32_t mask;
	uint32_t blksize;
	uint64_t attributes;
	uint32_t nlink;
	uint32_t uid;
	uint32_t gid;
	uint16_t mode;
	uint16_t spare0;
	uint64_t ino;
	uint64_t size;
	uint64_t blocks;
	uint64_t attributes_mask;
	struct bino_kstatx_timestamp atime;
	struct bino_kstatx_timestamp btime;
	struct bino_kstatx_timestamp ctime;
	struct bino_kstatx_timestamp mtime;
	uint32_t rdev_major;
	uint32_t rdev_minor;
	uint32_t dev_major;
	uint32_t dev_minor;
	uint64_t mnt_id;
	uint32_t dio_mem_align;
	uint32_t dio_offset_align;
	uint64_t subvol;
	uint64_t spare3[11];
};

/*
 * statx() into our struct: a thin wrapper of that one call, 0 or -1 with
 * errno as it returns.  The mask asked
 * for always includes the basic stats, the mount ID and the subvolume.
 */
int bino__statx(int dirfd, const char *path, int flags,
		struct bino_kstatx *ret);

/* st_dev of a statx result, as makedev() encodes it. */
uint64_t bino__statx_dev(const struct bino_kstatx *stx);

#endif
