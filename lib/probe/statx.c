/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* statx(2) through the raw syscall, so fields newer than libc are readable. */
#include "statx.h"

#include <string.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

_Static_assert(sizeof(struct bino_kstatx) == 256, "struct statx is 256 bytes");
_Static_assert(__builtin_offsetof(struct bino_kstatx, subvol) == 160,
	       "stx_subvol is at offset 160");

int bino__statx(int dirfd, const char *path, int flags,
		struct bino_kstatx *ret)
{
	memset(ret, 0, sizeof(*ret));
	return (int)syscall(SYS_statx, dirfd, path, flags,
			    BINO_STATX_BASIC_STATS | BINO_STATX_BTIME |
				    BINO_STATX_MNT_ID | BINO_STATX_SUBVOL,
			    ret);
}

uint64_t bino__statx_dev(const struct bino_kstatx *stx)
{
	return makedev(stx->dev_major, stx->dev_minor);
}
