/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stat family as glibc 2.36 exports it to new links, interposed: each
 * calls the next definition (glibc's) and, on success, lets subvoldev.c
 * replace st_dev.  stat, lstat, fstat, fstatat and their 64 variants, statx,
 * and the __xstat family, which glibc still exports with default versions
 * (programs built before glibc 2.33 call them).  The only symbols this object
 * exports (exec.sym); nothing runs before the first call.  Each answers as
 * the libc function it stands for, 0 or -1 with errno (ENOSYS when there is
 * no next definition): the wrappers of one call that lib/base/internal.h's
 * error convention lets keep that shape.
 */
#undef _FILE_OFFSET_BITS /* define stat and stat64 each, not one as the other */

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "subvoldev.h"

#define EXPORT __attribute__((visibility("default")))

/* The next definition of a function, looked up on its first call. */
static void *next_definition(void *_Atomic *cache, const char *name)
{
	void *f = atomic_load_explicit(cache, memory_order_relaxed);

	if (!f) {
		f = bino_preload_next(name);
		atomic_store_explicit(cache, f, memory_order_relaxed);
	}
	return f;
}

/* REAL(name): next_name, the next definition of @name, or fail with ENOSYS. */
#define REAL(name)                                                           \
	static void *_Atomic real_##name;                                    \
	__typeof__(&name) next_##name =                                      \
		(__typeof__(&name))next_definition(&real_##name, #name);     \
	if (!next_##name) {                                                  \
		errno = ENOSYS;                                              \
		return -1;                                                   \
	}

#define FIX(buf, dirfd_, path_, flags_)                                      \
	do {                                                                 \
		struct bino_stat_target target = { (dirfd_), (path_),        \
						    (flags_) };              \
		dev_t dev;                                                   \
		if (bino_preload_subvol_dev(&target, (buf)->st_dev,          \
					    (buf)->st_ino, &dev))            \
			(buf)->st_dev = dev;                                 \
	} while (0)

/*
 * WRAP(name, (params), (args), dirfd, path, flags): define @name to call the
 * next definition with @args and, when it succeeds, fix buf->st_dev for the
 * target (@dirfd, @path, @flags).
 */
#define WRAP(name, params, args, dirfd_, path_, flags_)                     \
	EXPORT int name params;                                              \
	EXPORT int name params                                               \
	{                                                                    \
		REAL(name)                                                   \
		int ret = next_##name args;                                  \
		if (ret == 0)                                                \
			FIX(buf, dirfd_, path_, flags_);                     \
		return ret;                                                  \
	}

/* stat, lstat, fstat and fstatat for one struct type, and the __x forms. */
#define STAT_FAMILY(sfx, type)                                               \
	WRAP(stat##sfx, (const char *restrict path, type *restrict buf),     \
	     (path, buf), AT_FDCWD, path, 0)                                 \
	WRAP(lstat##sfx, (const char *restrict path, type *restrict buf),    \
	     (path, buf), AT_FDCWD, path, AT_SYMLINK_NOFOLLOW)               \
	WRAP(fstat##sfx, (int fd, type *buf), (fd, buf), fd, "",             \
	     AT_EMPTY_PATH)                                                  \
	WRAP(fstatat##sfx,                                                   \
	     (int dirfd, const char *restrict path, type *restrict buf,      \
	      int flags),                                                    \
	     (dirfd, path, buf, flags), dirfd, path, flags)                  \
	WRAP(__xstat##sfx, (int ver, const char *path, type *buf),           \
	     (ver, path, buf), AT_FDCWD, path, 0)                            \
	WRAP(__lxstat##sfx, (int ver, const char *path, type *buf),          \
	     (ver, path, buf), AT_FDCWD, path, AT_SYMLINK_NOFOLLOW)          \
	WRAP(__fxstat##sfx, (int ver, int fd, type *buf), (ver, fd, buf),    \
	     fd, "", AT_EMPTY_PATH)                                          \
	WRAP(__fxstatat##sfx,                                                \
	     (int ver, int dirfd, const char *path, type *buf, int flags),   \
	     (ver, dirfd, path, buf, flags), dirfd, path, flags)

STAT_FAMILY(, struct stat)
STAT_FAMILY(64, struct stat64)

EXPORT int statx(int dirfd, const char *restrict path, int flags,
		 unsigned int mask, struct statx *restrict buf)
{
	REAL(statx)
	struct bino_stat_target target = { dirfd, path, flags };
	dev_t dev;
	int ret = next_statx(dirfd, path, flags, mask, buf);

	if (ret == 0 &&
	    bino_preload_subvol_dev(&target,
				    makedev(buf->stx_dev_major, buf->stx_dev_minor),
				    buf->stx_ino, &dev)) {
		buf->stx_dev_major = major(dev);
		buf->stx_dev_minor = minor(dev);
	}
	return ret;
}
