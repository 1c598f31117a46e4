/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper, preloaded (LD_PRELOAD): mount(2) on a directory that is the
 * subvolume DELETE_AT_MOUNT (an absolute path) first deletes that
 * subvolume (BTRFS_IOC_SNAP_DESTROY on its parent), as a user deleting it
 * between the check of the mount point and the mount would; every other
 * mount(2) is passed on untouched.  Exit status 99 if the delete fails.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
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
		perror("delete-at-mount");
		_exit(99);
	}
	close(fd);
}

int mount(const char *source, const char *target, const char *type,
	  unsigned long flags, const void *data)
{
	mount_fn *real = (mount_fn *)dlsym(RTLD_NEXT, "mount");
	const char *victim = getenv("DELETE_AT_MOUNT");
	char where[PATH_MAX];
	ssize_t len;

	/* The library mounts on /proc/self/fd/N: the directory it opened. */
	len = victim ? readlink(target, where, sizeof(where) - 1) : -1;
	if (len > 0) {
		where[len] = '\0';
		if (strcmp(where, victim) == 0)
			delete_subvol(victim);
	}
	return real(source, target, type, flags, data);
}
