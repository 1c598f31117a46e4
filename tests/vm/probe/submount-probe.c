// SPDX-License-Identifier: LGPL-2.1-or-later
// What an NFS client's untriggered server mount looks like, and whether a clone of the
// triggered submount moved onto it holds it (the client keeper's mechanism, issue 38).
//
// Usage: submount-probe DIR NAME
// Prints key=value lines: the entry DIR/NAME looked at without triggering (statx with
// AT_NO_AUTOMOUNT, then an O_PATH openat2), then opened O_DIRECTORY through openat2
// (RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH): whether that triggers the submount; then
// open_tree(OPEN_TREE_CLONE) of it, the submount detached, the clone moved onto the
// O_PATH fd of the entry.  Exit 0 when the clone is mounted.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static int probe_openat2(int dirfd, const char *name, int flags)
{
	struct open_how how = {
		.flags = (unsigned)flags | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH,
	};

	return (int)syscall(SYS_openat2, dirfd, name, &how, sizeof(how));
}

static void probe_show(const char *what, int dirfd, const char *name, int flags)
{
	struct statx stx;
	struct {
		struct file_handle fh;
		unsigned char bytes[128];
	} h = { .fh.handle_bytes = 128 };
	int mnt, i;

	if (statx(dirfd, name, flags | AT_SYMLINK_NOFOLLOW,
		  STATX_BASIC_STATS | STATX_MNT_ID, &stx) != 0) {
		printf("%s: statx errno=%s\n", what, strerrorname_np(errno));
		return;
	}
	printf("%s: dev=%u:%u ino=%llu automount=%d mount_root=%d mnt_id=%llu uid=%u",
	       what, stx.stx_dev_major, stx.stx_dev_minor,
	       (unsigned long long)stx.stx_ino,
	       !!(stx.stx_attributes & STATX_ATTR_AUTOMOUNT),
	       !!(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT),
	       (unsigned long long)stx.stx_mnt_id, stx.stx_uid);
	if (name_to_handle_at(dirfd, name, &h.fh, &mnt, flags & AT_EMPTY_PATH) == 0) {
		printf(" handle=");
		for (i = 0; i < (int)h.fh.handle_bytes; i++)
			printf("%02x", h.bytes[i]);
	} else {
		printf(" handle_errno=%s", strerrorname_np(errno));
	}
	putchar('\n');
}

/* The fd @fd opened as @what, and the NFS mounts there are after it. */
static void probe_opened(const char *what, int fd)
{
	FILE *table = fopen("/proc/self/mountinfo", "r");
	char line[4096];
	int n = 0;

	probe_show(what, fd, "", AT_EMPTY_PATH);
	while (table && fgets(line, sizeof(line), table))
		n += strstr(line, " - nfs") != NULL;
	if (table)
		fclose(table);
	printf("nfs mounts after %s: %d\n", what, n);
}

int main(int argc, char **argv)
{
	char proc[64];
	int dirfd, pathfd, subfd, clone;

	if (argc != 3)
		return 2;
	dirfd = open(argv[1], O_DIRECTORY | O_RDONLY);
	if (dirfd < 0)
		return 2;
	probe_show("untriggered", dirfd, argv[2], AT_NO_AUTOMOUNT);
	pathfd = probe_openat2(dirfd, argv[2], O_PATH);
	if (pathfd < 0) {
		printf("o_path: errno=%s\n", strerrorname_np(errno));
		return 1;
	}
	probe_opened("o_path", pathfd);
	subfd = probe_openat2(dirfd, argv[2], O_DIRECTORY | O_RDONLY);
	if (subfd < 0) {
		printf("o_directory: errno=%s\n", strerrorname_np(errno));
		return 1;
	}
	probe_opened("o_directory", subfd);
	clone = (int)syscall(SYS_open_tree, subfd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (clone < 0) {
		printf("open_tree: errno=%s\n", strerrorname_np(errno));
		return 1;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", subfd);
	if (umount2(proc, MNT_DETACH) != 0)
		printf("umount submount: errno=%s\n", strerrorname_np(errno));
	close(subfd);
	if (syscall(SYS_move_mount, clone, "", pathfd, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0) {
		printf("move_mount: errno=%s\n", strerrorname_np(errno));
		return 1;
	}
	close(clone);
	probe_show("held", dirfd, argv[2], 0);
	return 0;
}
