/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The device number a stat result should carry on an NFS client of btrfs. */
#ifndef BINO_PRELOAD_SUBVOLDEV_H
#define BINO_PRELOAD_SUBVOLDEV_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * What a stat call looked at, as fstatat(2) names it: @path relative to
 * @dirfd, or @dirfd itself when @path is "" and @flags has AT_EMPTY_PATH.
 * Only AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH of @flags matter.
 */
struct bino_stat_target {
	int dirfd;
	const char *path;
	int flags;
};

/*
 * For a successful stat of @target that gave @raw_dev and @ino: true with
 * the (NFS mount, server subvolume) device number in @ret when @raw_dev is
 * an NFS client mount of a btrfs export whose file handles can be read;
 * false, leaving @ret alone, for everything else.  Keeps errno.
 * Thread-safe and async-signal-safe once the real stat functions are known.
 */
bool bino_preload_subvol_dev(const struct bino_stat_target *target,
			     dev_t raw_dev, ino_t ino, dev_t *ret);

/* The next definition of @name after this object's (dlsym RTLD_NEXT). */
void *bino_preload_next(const char *name);

#endif
