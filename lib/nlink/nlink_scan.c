/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which inodes of a btrfs subvolume have more than one name, counted by
 * reading its directories.  Without CAP_SYS_ADMIN the tree cannot be
 * searched (nlink_tree.c), and the audit learns nlink from a stat per
 * entry whose key collides: on a snapshot every entry, and a warm stat
 * costs about twice what reading the entry's directory does (0.9 µs
 * against 0.4 µs per entry of the bench's 1+1 snapshot).
 *
 * A non-directory's nlink is the number of its names, and btrfs keeps
 * every name of an inode in the inode's subvolume (a link across
 * subvolumes is EXDEV), so the names met in a read of the whole subvolume
 * are nlink, as of the read: the same moment-in-time answer the tree
 * read and a stat give.  Only the whole subvolume will do: a directory
 * that cannot be read, or one a mount covers, hides names, and then the
 * scan fails and the audit stats instead.
 *
 * The scan goes depth first with one fd per level (each directory opened
 * relative to its parent) and the names of the subdirectories still to
 * visit; each directory is read whole before its first subdirectory is
 * opened.  Memory: two compressed sets of dense inode numbers, and the
 * subdirectory names of the directories on the current path.
 */
#include "nlink_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "btrfsconst.h"
#include "getdents.h"
#include "statx.h"

#define LINKSCAN_BUFFER_SIZE (64 * 1024)
/* Levels (open fds) at most; a deeper subvolume is left to stat. */
#define LINKSCAN_DEPTH_MAX 64

/* A directory on the current path: its fd and its subdirectories' names. */
struct linkscan_level {
	int fd;
	size_t names_start; /* in the scan's names buffer */
	size_t next; /* the next name to visit */
};

struct linkscan {
	const bool *stop;
	uint64_t mnt_id; /* the subvolume root's mount */
	struct inoset seen; /* non-directories met once or more */
	struct inoset *linked; /* and those met twice or more */
	char *names; /* subdirectory names, NUL-terminated, level after level */
	size_t names_len, names_cap;
	struct linkscan_level levels[LINKSCAN_DEPTH_MAX];
	int depth; /* levels in use */
	int errnum; /* why the scan failed */
	char buffer[LINKSCAN_BUFFER_SIZE] __attribute__((aligned(8)));
};

/* Fail the scan with @err, the cause @errnum kept in the scan. */
static enum bino_error linkscan_fail(struct linkscan *scan, enum bino_error err,
				     int errnum)
{
	scan->errnum = errnum;
	return err;
}

/* Count one non-directory name of inode @ino. */
static enum bino_error linkscan_count(struct linkscan *scan, uint64_t ino)
{
	enum inoset_added added = bino__inoset_add(&scan->seen, ino);

	if (added == INOSET_PRESENT)
		added = bino__inoset_add(scan->linked, ino);
	if (added == INOSET_NO_MEMORY)
		return linkscan_fail(scan, BINO_ERROR_NO_MEMORY, ENOMEM);
	return BINO_OK;
}

/*
 * Read the directory @fd whole as a new level: count its non-directories,
 * keep its subdirectories' names.  The level owns @fd from here.
 */
static enum bino_error linkscan_push(struct linkscan *scan, int fd)
{
	struct linkscan_level *level = &scan->levels[scan->depth++];
	const struct linux_dirent64 *dent;
	struct bino_dirents dirents;
	enum bino_dirents_next next;
	enum bino_error err;

	level->fd = fd;
	level->names_start = scan->names_len;
	level->next = scan->names_len;
	bino__dirents_init(&dirents, fd, scan->buffer, sizeof(scan->buffer));
	while ((next = bino__dirents_next(&dirents, &dent)) ==
	       BINO_DIRENTS_RECORD) {
		size_t size;

		if (dent->d_type == DT_UNKNOWN)
			return linkscan_fail(scan, BINO_ERROR_READDIR_FAILED,
					     EPROTO);
		if (dent->d_type != DT_DIR) {
			err = linkscan_count(scan, dent->d_ino);
			if (err)
				return err;
			continue;
		}
		size = strlen(dent->d_name) + 1;
		if (ARRAY_RESERVE(scan->names, scan->names_cap,
				  scan->names_len + size))
			return linkscan_fail(scan, BINO_ERROR_NO_MEMORY, ENOMEM);
		memcpy(scan->names + scan->names_len, dent->d_name, size);
		scan->names_len += size;
	}
	if (next == BINO_DIRENTS_FAILED)
		return linkscan_fail(scan, BINO_ERROR_READDIR_FAILED, errno);
	return BINO_OK;
}

/*
 * Open subdirectory @name of the top level into *@fd, or -1 there when it
 * is not part of the subvolume's names (a nested subvolume, or gone since
 * it was read).
 */
static enum bino_error linkscan_open(struct linkscan *scan, const char *name,
				     int *fd)
{
	int dirfd = scan->levels[scan->depth - 1].fd;
	struct bino_kstatx stx;
	enum bino_error err = BINO_OK;

	*fd = openat(dirfd, name,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
			     O_NONBLOCK);
	if (*fd < 0)
		return errno == ENOENT ? BINO_OK :
		       linkscan_fail(scan, BINO_ERROR_OPEN_FAILED, errno);
	if (bino__statx(*fd, "", AT_EMPTY_PATH, &stx) != 0)
		err = linkscan_fail(scan, BINO_ERROR_STAT_FAILED, errno);
	else if (!(stx.mask & BINO_STATX_MNT_ID) || stx.mnt_id != scan->mnt_id)
		/* a mount hides what is below */
		err = linkscan_fail(scan, BINO_ERROR_READDIR_FAILED, EXDEV);
	if (err || stx.ino == BTRFS_FIRST_FREE_OBJECTID) {
		close(*fd); /* or a nested subvolume's root: its own names */
		*fd = -1;
	}
	return err;
}

/* Check that @root_fd is a subvolume's root, and start at it. */
static enum bino_error linkscan_start(struct linkscan *scan, int root_fd)
{
	struct bino_kstatx stx;
	int fd;

	if (bino__statx(root_fd, "", AT_EMPTY_PATH, &stx) != 0)
		return linkscan_fail(scan, BINO_ERROR_STAT_FAILED, errno);
	if (stx.ino != BTRFS_FIRST_FREE_OBJECTID || !S_ISDIR(stx.mode))
		return linkscan_fail(scan, BINO_ERROR_INVALID_ARGUMENT, EINVAL);
	if (!(stx.mask & BINO_STATX_MNT_ID)) /* mounts below could not be told */
		return linkscan_fail(scan, BINO_ERROR_STAT_FAILED, EXDEV);
	scan->mnt_id = stx.mnt_id;
	fd = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return linkscan_fail(scan, BINO_ERROR_OPEN_FAILED, errno);
	return linkscan_push(scan, fd);
}

static enum bino_error linkscan_run(struct linkscan *scan, int root_fd)
{
	enum bino_error err = linkscan_start(scan, root_fd);
	int fd;

	while (!err && scan->depth > 0) {
		struct linkscan_level *level = &scan->levels[scan->depth - 1];
		const char *name;

		if (level->next >= scan->names_len) {
			close(level->fd);
			scan->names_len = level->names_start;
			scan->depth--;
			continue;
		}
		if (scan->stop && __atomic_load_n(scan->stop, __ATOMIC_RELAXED))
			return linkscan_fail(scan, BINO_ERROR_STOP_ITERATION,
					     ECANCELED);
		name = scan->names + level->next;
		level->next += strlen(name) + 1;
		if (scan->depth == LINKSCAN_DEPTH_MAX)
			return linkscan_fail(scan, BINO_ERROR_OPEN_FAILED, ELOOP);
		err = linkscan_open(scan, name, &fd);
		if (!err && fd >= 0)
			err = linkscan_push(scan, fd);
	}
	return err;
}

enum bino_error bino__linkscan_set(int root_fd, const bool *stop,
				   struct inoset *linked, int *errnum)
{
	struct linkscan *scan = calloc(1, sizeof(*scan));
	enum bino_error err;

	if (!scan) {
		*errnum = ENOMEM;
		return BINO_ERROR_NO_MEMORY;
	}
	scan->stop = stop;
	scan->linked = linked;
	err = linkscan_run(scan, root_fd);
	*errnum = scan->errnum;
	while (scan->depth > 0)
		close(scan->levels[--scan->depth].fd);
	bino__inoset_clear(&scan->seen);
	free(scan->names);
	free(scan);
	if (err)
		bino__inoset_clear(linked); /* part of the answer is none */
	return err;
}
