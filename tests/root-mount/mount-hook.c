/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper, preloaded (LD_PRELOAD) into btrfs-ino: what happens just
 * before each mount(2), as the environment asks.
 *  - DELETE_AT_MOUNT=PATH: mount(2) on the directory that is the subvolume
 *    PATH first deletes that subvolume (BTRFS_IOC_SNAP_DESTROY on its
 *    parent), as a user deleting it between the check of the mount point
 *    and the mount would.  Exit status 99 if the delete fails.
 *  - SLOW_MOUNT_MS=N: each mount(2) first sleeps N ms, as on a loaded
 *    server, so that a test can act in the middle of a pass.
 *  - SLOW_SEARCH_MS=N: each BTRFS_IOC_TREE_SEARCH (or _V2) first sleeps
 *    N ms, so that planning takes long and a test can act while a pass
 *    plans.
 * The call itself is then made as asked.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <time.h>
#include <unistd.h>

typedef int mount_fn(const char *, const char *, const char *, unsigned long,
		     const void *);

static void delete_subvol(const char *path)
{
	struct btrfs_ioctl_vol_args args = { .fd = 0 };
	char parent[PATH_MAX], name[PATH_MAX];
	int fd;

	snprintf(parent, sizeof(parent), "%s", path);
	snprintf(name, sizeof(name), "%s", path);
	snprintf(args.name, sizeof(args.name), "%s", basename(name));
	fd = open(dirname(parent), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || ioctl(fd, BTRFS_IOC_SNAP_DESTROY, &args) != 0) {
		perror("mount-hook");
		_exit(99);
	}
	close(fd);
}

typedef int ioctl_fn(int, unsigned long, void *);

/* Sleep the milliseconds the environment variable @name says, if set. */
static void pause_for(const char *name)
{
	const char *text = getenv(name);
	long ms = text ? strtol(text, NULL, 10) : 0;
	struct timespec pause = { ms / 1000, ms % 1000 * 1000000 };

	if (ms > 0)
		nanosleep(&pause, NULL);
}

int ioctl(int fd, unsigned long request, ...)
{
	ioctl_fn *real = (ioctl_fn *)dlsym(RTLD_NEXT, "ioctl");
	va_list args;
	void *arg;

	va_start(args, request);
	arg = va_arg(args, void *);
	va_end(args);
	if (request == BTRFS_IOC_TREE_SEARCH ||
	    request == BTRFS_IOC_TREE_SEARCH_V2)
		pause_for("SLOW_SEARCH_MS");
	return real(fd, request, arg);
}

int mount(const char *source, const char *target, const char *type,
	  unsigned long flags, const void *data)
{
	mount_fn *real = (mount_fn *)dlsym(RTLD_NEXT, "mount");
	const char *victim = getenv("DELETE_AT_MOUNT");
	char where[PATH_MAX];
	ssize_t len;

	pause_for("SLOW_MOUNT_MS");
	/* The library mounts on /proc/self/fd/N: the directory it opened. */
	len = victim ? readlink(target, where, sizeof(where) - 1) : -1;
	if (len > 0) {
		where[len] = '\0';
		if (strcmp(where, victim) == 0)
			delete_subvol(victim);
	}
	return real(source, target, type, flags, data);
}
