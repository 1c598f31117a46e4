/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files written as root into directories others may write: reached without
 * following a symbolic link, created under a fresh random name with
 * O_EXCL, renamed into place whole (see safe_file.c for the threat model).
 */
#ifndef BTRFS_INO_SAFE_FILE_H
#define BTRFS_INO_SAFE_FILE_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

/* What safe_dir_open() does besides opening. */
enum safe_dir_flags {
	/* Make the missing directories of the path, mode 0755 (mkdir -p). */
	SAFE_DIR_MAKE_PARENTS = 1 << 0,
	/*
	 * Refuse a path where another user could later change what was
	 * written: a directory on it owned by someone else than root or us,
	 * one others can write without the sticky bit, or a last directory
	 * others can write at all (they could add files beside ours).
	 */
	SAFE_DIR_OURS_ONLY = 1 << 1,
};

/*
 * Open the directory @path (relative to the working directory unless
 * absolute) one component at a time from "/", never following a symbolic
 * link, as @flags say.  Returns a descriptor opened O_RDONLY|O_DIRECTORY,
 * or -1 with the reason on stderr (one line naming the component).
 */
int safe_dir_open(const char *path, int flags);

/*
 * The directory part of the file name @path, as a new string ("." when it
 * has none), and its last component in *@name, borrowed from @path.  NULL
 * when @path names no file (empty, ending in "/", "." or ".."), or out of
 * memory (errno says which: EINVAL or ENOMEM).
 */
char *safe_file_dir_of(const char *path, const char **name);

/* A file being written: what safe_file_begin() made. */
struct safe_file {
	int dir_fd; /* borrowed: where it goes */
	const char *dir_path; /* borrowed: the directory, for messages */
	const char *name; /* borrowed: the name it gets */
	char temp_name[NAME_MAX + 1]; /* its name until then */
	int fd; /* write the content here; -1 once committed or discarded */
};

/*
 * Create a new file of mode 0600, under a random hidden name beside @name
 * in @dir_fd, for the content of @name.  Returns 0, or -1 with the reason
 * on stderr.  End it with safe_file_commit() or safe_file_discard().
 */
int safe_file_begin(struct safe_file *file, int dir_fd, const char *dir_path,
		    const char *name);

/* Write all of @buf to @file.  Returns 0, or -1 with the reason on stderr. */
int safe_file_write(struct safe_file *file, const void *buf, size_t len);

/*
 * Give the file @mode, sync it and rename it onto its name (replacing what
 * was there, a symbolic link included, never following it), then sync the
 * directory.  Returns 0, or -1 with the reason on stderr and the file
 * discarded.
 */
int safe_file_commit(struct safe_file *file, mode_t mode);

/* Remove the file unwritten; what @name held is left alone. */
void safe_file_discard(struct safe_file *file);

#endif
