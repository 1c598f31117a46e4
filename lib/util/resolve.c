/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Resolve once, as root must where users own the directories: a directory
 * opened with no symbolic link anywhere on its path (openat2's
 * RESOLVE_NO_SYMLINKS), or below a directory fd already trusted and never
 * outside it (RESOLVE_BENEATH), component by component with O_NOFOLLOW on
 * kernels without openat2 (before 5.6).  The mount plan opens mount points
 * with it and the suggestion checks configuration paths with it, so that
 * what is written for root and what root mounts are judged alike.
 */
#include "resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void close_keep_errno(int fd)
{
	int saved = errno;

	close(fd);
	errno = saved;
}

/*
 * openat2(2) has no glibc wrapper on Debian 12; -1 with ENOSYS where the
 * kernel lacks it (before 5.6).
 */
static int openat2_call(int dirfd, const char *path, int flags, uint64_t resolve)
{
	struct open_how how = {
		.flags = (uint64_t)flags,
		.resolve = resolve,
	};

#ifdef SYS_openat2
	return (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
#else
	(void)dirfd, (void)path, (void)how;
	errno = ENOSYS;
	return -1;
#endif
}

/*
 * Without openat2: @path below @dirfd one name at a time, each opened with
 * O_NOFOLLOW | O_DIRECTORY (a symbolic link is then ENOTDIR or ELOOP) and
 * ".." refused (EXDEV), as RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS would.
 * An absolute @path starts at "/" (then @dirfd is not used).  An fd, or -1
 * with errno, as openat(2).
 */
int bino__resolve_by_names(int dirfd, const char *path, int flags)
{
	int fd = -1, next;

	if (*path == '/') {
		fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			return -1;
		dirfd = fd;
	}
	for (;;) {
		size_t len;
		char name[NAME_MAX + 1];
		bool last;

		path += strspn(path, "/");
		len = strcspn(path, "/");
		last = path[len + strspn(path + len, "/")] == '\0';
		if (len > NAME_MAX) {
			errno = ENAMETOOLONG;
			goto out_close;
		}
		memcpy(name, len ? path : ".", len ? len : 1);
		name[len ? len : 1] = '\0';
		if (strcmp(name, "..") == 0) {
			errno = EXDEV;
			goto out_close;
		}
		next = openat(dirfd, name, (last ? flags : O_PATH) | O_DIRECTORY |
			      O_NOFOLLOW | O_CLOEXEC);
		if (next < 0)
			goto out_close;
		if (fd >= 0)
			close(fd);
		fd = dirfd = next;
		if (last)
			return fd;
		path += len;
	}

out_close:
	if (fd >= 0)
		close_keep_errno(fd);
	return -1;
}

/*
 * Open the directory @path (absolute) with @flags, following no symbolic
 * link in any of its components: an fd, or -1 with errno, as openat(2).
 */
int bino__resolve_no_symlinks(const char *path, int flags)
{
	int fd = openat2_call(AT_FDCWD, path, flags | O_DIRECTORY | O_CLOEXEC,
			      RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS);

	if (fd < 0 && errno == ENOSYS)
		return bino__resolve_by_names(AT_FDCWD, path, flags);
	return fd;
}

/*
 * Open the directory @path, relative to @dirfd, with @flags: never through a
 * symbolic link, never outside @dirfd (EXDEV, ELOOP or ENOTDIR otherwise).
 * Mount points on the way are crossed, as a path lookup would.  An fd, or
 * -1 with errno, as openat(2).
 */
int bino__resolve_beneath(int dirfd, const char *path, int flags)
{
	int fd = openat2_call(dirfd, path, flags | O_DIRECTORY | O_CLOEXEC,
			      RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
				      RESOLVE_NO_MAGICLINKS);

	if (fd < 0 && errno == ENOSYS)
		return bino__resolve_by_names(dirfd, path, flags);
	return fd;
}

/*
 * As bino__resolve_beneath(), for any file and without O_DIRECTORY: with
 * O_PATH, the last component is opened as it is, an automount point (an
 * NFS client's view of a server mount) not triggered, which O_DIRECTORY
 * would do.  No fallback before openat2 (Linux 5.6): opening name by name
 * would trigger it (-1 with ENOSYS then).
 */
int bino__resolve_beneath_as_is(int dirfd, const char *path, int flags)
{
	return openat2_call(dirfd, path, flags | O_CLOEXEC,
			    RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
				    RESOLVE_NO_MAGICLINKS);
}
