/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How the client keeper makes a server mount a mount of the client's own,
 * one that tools meet before they look and that never expires.
 *
 * What a Linux NFS client does (shown on Debian 12's 6.1 kernel by
 * tests/vm/scenarios/client-submount-probe.sh, the same for vers=3 and
 * vers=4.2): a server mount below a crossmnt export is, until something
 * crosses it, a directory with STATX_ATTR_AUTOMOUNT, the parent's st_dev
 * and the server's inode 256, and name_to_handle_at() refuses it
 * (EOVERFLOW).  stat(), and an openat2() with O_PATH, leave it so; an
 * openat2() with O_DIRECTORY (RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH do not
 * stop it) makes the kernel's submount: a new st_dev,
 * STATX_ATTR_MOUNT_ROOT, the same inode.  That submount expires after
 * fs.nfs.nfs_mountpoint_timeout idle seconds, and a cold find meets the
 * directory again.
 *
 * So: open_tree(OPEN_TREE_CLONE) of the triggered submount makes a mount
 * of the same superblock that is on no expiry list; the submount is
 * detached, and the clone moved (move_mount) onto the O_PATH fd of the
 * directory it stood on.  That one mount holds (the probe saw it stay past
 * the timeout, as a mount point in /proc/self/mountinfo); no fd is kept
 * per mount, the keeper knows its mounts by mount ID.  It serves both NFS
 * versions alike, unlike an NFS mount per server mount (vers=3's
 * client-fstab lines), which would need the server's path names and mount
 * options spelled out again.
 *
 * Every step acts on an fd resolved once below DIR's fd, never through a
 * symbolic link (users on the server choose the names and can put a link
 * anywhere), and checks what it opened against the plan first: still an
 * untriggered server mount, a subvolume root (inode 256) of the planned
 * owner; after the trigger, a mount root of another filesystem than the
 * directory's, the same inode and owner.  An unmount is done only on the
 * mount whose ID the keeper kept.
 */
#include "client_hold.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "resolve.h"

#define CLIENT_STATX_MASK (STATX_TYPE | STATX_INO | STATX_UID | STATX_MNT_ID)

/* close() that keeps the errno of the failure before it. */
static void close_keep_errno(int fd)
{
	int saved = errno;

	close(fd);
	errno = saved;
}

/* What @stx says the entry is. */
static enum client_entry_kind entry_kind(const struct statx *stx)
{
	if (!S_ISDIR(stx->stx_mode))
		return CLIENT_ENTRY_OTHER;
	if (stx->stx_attributes & STATX_ATTR_AUTOMOUNT)
		return CLIENT_ENTRY_SERVER_MOUNT;
	if (stx->stx_attributes & STATX_ATTR_MOUNT_ROOT)
		return CLIENT_ENTRY_MOUNTED;
	if (stx->stx_ino == CLIENT_SUBVOL_INO)
		return CLIENT_ENTRY_UNMOUNTED_SUBVOL;
	return CLIENT_ENTRY_OTHER;
}

int client_entry_look(int dirfd, const char *name, struct client_entry *entry)
{
	struct statx stx;

	if (statx(dirfd, name, AT_NO_AUTOMOUNT | AT_SYMLINK_NOFOLLOW,
		  CLIENT_STATX_MASK, &stx) != 0)
		return -1;
	entry->kind = entry_kind(&stx);
	entry->is_dir = S_ISDIR(stx.stx_mode);
	entry->uid = stx.stx_uid;
	entry->mnt_id = stx.stx_mnt_id;
	return 0;
}

/* statx() of the fd @fd itself.  0, or -1 with errno set. */
static int fd_statx(int fd, struct statx *stx)
{
	return statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW,
		     CLIENT_STATX_MASK, stx);
}

/* "/proc/self/fd/N" for @fd: the path umount2() takes for an fd. */
static void fd_path(int fd, char *buf, size_t size)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/*
 * Trigger the submount at @rel and check it is the one planned (@point:
 * the untriggered entry).  Its fd, or -1 with errno set (ESTALE: not
 * what was planned).
 */
static int trigger(int rootfd, const char *rel, const struct statx *point)
{
	struct statx stx;
	int fd;

	fd = bino__resolve_beneath(rootfd, rel, O_DIRECTORY | O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fd_statx(fd, &stx) != 0) {
		close_keep_errno(fd);
		return -1;
	}
	if (!(stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) ||
	    stx.stx_ino != point->stx_ino || stx.stx_uid != point->stx_uid ||
	    stx.stx_mnt_id == point->stx_mnt_id ||
	    (stx.stx_dev_major == point->stx_dev_major &&
	     stx.stx_dev_minor == point->stx_dev_minor)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * Clone the submount open at @subfd, detach the submount, and move the
 * clone onto @pointfd.  0 with the clone's mount ID in *@mnt_id, or -1
 * with errno set.
 */
static int clone_onto(int subfd, int pointfd, uint64_t *mnt_id)
{
	char proc[64];
	struct statx stx;
	int clone;

	clone = (int)syscall(SYS_open_tree, subfd, "",
			     OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
	if (clone < 0)
		return -1;
	/* The kernel's submount would expire under the clone, or hide it. */
	fd_path(subfd, proc, sizeof(proc));
	if (umount2(proc, MNT_DETACH) != 0 ||
	    syscall(SYS_move_mount, clone, "", pointfd, "",
		    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) != 0 ||
	    fd_statx(clone, &stx) != 0) {
		close_keep_errno(clone);
		return -1;
	}
	*mnt_id = stx.stx_mnt_id;
	close(clone);
	return 0;
}

int client_hold(int rootfd, const char *rel, uint32_t uid, uint64_t *mnt_id)
{
	struct statx point;
	int pointfd, subfd, ret = -1;

	/* O_PATH without O_DIRECTORY: the directory the server mount is on, not triggered. */
	pointfd = bino__resolve_beneath_as_is(rootfd, rel, O_PATH);
	if (pointfd < 0)
		return -1;
	if (fd_statx(pointfd, &point) != 0)
		goto out_close_point;
	if (entry_kind(&point) != CLIENT_ENTRY_SERVER_MOUNT || point.stx_uid != uid) {
		errno = ESTALE;
		goto out_close_point;
	}
	subfd = trigger(rootfd, rel, &point);
	if (subfd < 0)
		goto out_close_point;
	ret = clone_onto(subfd, pointfd, mnt_id);
	close_keep_errno(subfd);
out_close_point:
	close_keep_errno(pointfd);
	return ret;
}

int client_release(int rootfd, const char *rel, uint64_t mnt_id)
{
	char proc[64];
	struct statx stx;
	int fd, ret;

	fd = bino__resolve_beneath(rootfd, rel, O_PATH | O_CLOEXEC);
	if (fd < 0 || fd_statx(fd, &stx) != 0) {
		/*
		 * The kernel detaches the mounts on a name the server no
		 * longer has when a lookup finds it gone (d_invalidate()):
		 * ENOENT is that lookup, the mount may still be listed a
		 * moment (seen on 6.1 when snapper's N/ went).
		 */
		int saved = errno;

		if (fd >= 0)
			close(fd);
		if (saved == ENOENT || !client_mount_exists(mnt_id))
			return 0;
		errno = saved;
		return -1;
	}
	if (stx.stx_mnt_id != mnt_id) {
		close(fd);
		if (!client_mount_exists(mnt_id))
			return 0;
		errno = ESTALE;
		return -1;
	}
	fd_path(fd, proc, sizeof(proc));
	ret = umount2(proc, MNT_DETACH);
	close_keep_errno(fd);
	return ret;
}

bool client_mount_exists(uint64_t mnt_id)
{
	FILE *table = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	bool found = false;

	if (!table)
		return true; /* unknown: never forget a mount that may be there */
	while (!found && fgets(line, sizeof(line), table)) {
		char *end;
		uint64_t id = strtoull(line, &end, 10);

		found = end != line && *end == ' ' && id == mnt_id;
		/* The rest of a line longer than the buffer. */
		while (!strchr(line, '\n') && fgets(line, sizeof(line), table))
			;
	}
	fclose(table);
	return found;
}
