/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * subvols: make many btrfs subvolumes quickly, or churn them, for
 * bench/mount-many.sh.
 *
 *   subvols make DIR PREFIX COUNT UID
 *	create DIR/PREFIX0 .. DIR/PREFIX<COUNT-1> (BTRFS_IOC_SUBVOL_CREATE on
 *	DIR, no commit), each chowned to UID: some thousands a second, where
 *	`btrfs subvolume create` forks a process per call.
 *   subvols churn DIR PREFIX RATE UID
 *	until killed, each second create RATE subvolumes DIR/PREFIXn (chowned
 *	to UID) and delete RATE of those made before (BTRFS_IOC_SNAP_DESTROY),
 *	paced in steps of a hundredth of a second; the count made goes to
 *	stdout each second.
 *
 * Needs root (the ioctls, chown).  Exit status 1 on the first failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what, const char *name)
{
	fprintf(stderr, "subvols: %s %s: %s\n", what, name, strerror(errno));
	return 1;
}

static int create(int dir, const char *prefix, unsigned long n, uid_t uid)
{
	struct btrfs_ioctl_vol_args args;

	memset(&args, 0, sizeof(args));
	snprintf(args.name, sizeof(args.name), "%s%lu", prefix, n);
	if (ioctl(dir, BTRFS_IOC_SUBVOL_CREATE, &args) != 0)
		return fail("create", args.name);
	if (fchownat(dir, args.name, uid, uid, AT_SYMLINK_NOFOLLOW) != 0)
		return fail("chown", args.name);
	return 0;
}

static int destroy(int dir, const char *prefix, unsigned long n)
{
	struct btrfs_ioctl_vol_args args;

	memset(&args, 0, sizeof(args));
	snprintf(args.name, sizeof(args.name), "%s%lu", prefix, n);
	if (ioctl(dir, BTRFS_IOC_SNAP_DESTROY, &args) != 0)
		return fail("delete", args.name);
	return 0;
}

static int churn(int dir, const char *prefix, unsigned long rate, uid_t uid)
{
	/* A few hundred alive at a time: each is deleted 0.3 s after. */
	unsigned long made = 0, deleted = 0, step = 0, lag = rate * 3 / 10;
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		unsigned long goal = rate * (step + 1) / 100;

		while (made < goal) {
			if (create(dir, prefix, made++, uid) != 0)
				return 1;
		}
		while (made - deleted > lag) {
			if (destroy(dir, prefix, deleted++) != 0)
				return 1;
		}
		if (++step % 100 == 0) {
			printf("%lu\n", made);
			fflush(stdout);
		}
		next.tv_nsec += 10 * 1000 * 1000;
		if (next.tv_nsec >= 1000 * 1000 * 1000) {
			next.tv_nsec -= 1000 * 1000 * 1000;
			next.tv_sec++;
		}
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
}

int main(int argc, char **argv)
{
	unsigned long count, i;
	uid_t uid;
	int dir;

	if (argc != 6 || (strcmp(argv[1], "make") != 0 &&
			  strcmp(argv[1], "churn") != 0)) {
		fprintf(stderr, "usage: subvols make DIR PREFIX COUNT UID\n"
				"       subvols churn DIR PREFIX RATE UID\n");
		return 2;
	}
	count = strtoul(argv[4], NULL, 10);
	uid = (uid_t)strtoul(argv[5], NULL, 10);
	dir = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return fail("open", argv[2]);
	if (strcmp(argv[1], "churn") == 0)
		return churn(dir, argv[3], count, uid);
	for (i = 0; i < count; i++) {
		if (create(dir, argv[3], i, uid) != 0)
			return 1;
	}
	return 0;
}
