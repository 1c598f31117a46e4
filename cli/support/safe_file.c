/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Files written as root where someone else may write: the Prometheus
 * metrics in node_exporter's textfile directory (which the exporter's
 * account may own) and suggest's unit files.
 *
 * What another user can do there, and why it does not steer root:
 * - Put a symbolic link on the way.  The directory is opened one component
 *   at a time from "/" with O_NOFOLLOW: a link anywhere on the path is
 *   refused, never followed (name the directory it leads to instead).
 * - Put a link or a file at the name root will create.  The content is
 *   written into a new file under a random name (96 bits from
 *   getrandom), created with O_CREAT|O_EXCL|O_NOFOLLOW, so nothing that
 *   already exists is opened; renameat() then replaces whatever holds the
 *   final name, a symbolic link included, without following it.
 * - Read or replace the file while it is written.  It is 0600 until it is
 *   whole, then fchmod'ed to its final mode, fsync'ed, renamed, and the
 *   directory fsync'ed: a reader sees the old file or the new one whole.
 *   Whoever may write the directory may still replace the file afterwards:
 *   fine for metrics (the exporter reads them anyway), not for units that
 *   root will install.  So SAFE_DIR_OURS_ONLY (suggest --output-dir) also
 *   refuses a path on which another user could swap a directory or add
 *   files: every directory on it owned by root or by us, none writable by
 *   others unless sticky (as /tmp is), the last one not writable by others
 *   at all.
 */
#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "diag.h"

#define NEW_DIR_MODE 0755
/* Random characters in a temporary name: 16 of 64, 96 bits. */
#define TEMP_RANDOM_CHARS 16
/* New names to try when one exists already (someone guessed it: unlikely). */
#define TEMP_TRIES 16

/* ---- directories -------------------------------------------------------- */

/* A directory just opened on the way to the last one. */
struct dir_step {
	char *prefix; /* the absolute path up to this directory, for messages */
	int fd;
	bool last;
};

/*
 * Whether another user could change what is written below @step: if so,
 * the reason in @why.
 */
static bool dir_step_unsafe(const struct dir_step *step, const struct stat *st,
			    char *why, size_t size)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);
	bool others = st->st_mode & (S_IWGRP | S_IWOTH);

	if (st->st_uid != 0 && st->st_uid != geteuid())
		snprintf(why, size, "owned by uid %u, who could replace what is written below it",
			 (unsigned)st->st_uid);
	else if (others && step->last)
		snprintf(why, size, "mode %04o lets others add files beside the ones written",
			 mode);
	else if (others && !(st->st_mode & S_ISVTX))
		snprintf(why, size, "mode %04o lets others replace what is below it", mode);
	else
		return false;
	return true;
}

/* Whether @step's directory may be used: 0, or -1 with the reason on stderr. */
static int dir_step_check(const struct dir_step *step, int flags)
{
	struct stat st;
	char why[128];

	if (fstat(step->fd, &st) != 0) {
		diag_path(step->prefix, "%s", strerror(errno));
		return -1;
	}
	if (!(flags & SAFE_DIR_OURS_ONLY) || !dir_step_unsafe(step, &st, why, sizeof(why)))
		return 0;
	diag_path(step->prefix, "refused: %s; name a directory only you can write (missing ones are made)",
		  why);
	return -1;
}

/* @fd (maybe O_PATH) opened again for reading, to fsync or fchmod it; -1 with errno set. */
static int dir_reopen(int fd)
{
	return openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

/* Sync @fd's directory, so a name just made in it lasts a crash: 0, or -1 with errno set. */
static int dir_sync(int fd)
{
	int rd = dir_reopen(fd), rc, errnum;

	if (rd < 0)
		return -1;
	rc = fsync(rd);
	errnum = errno;
	close(rd);
	errno = errnum;
	return rc;
}

/*
 * Make @name in @parent_fd, mode NEW_DIR_MODE whatever the umask, and sync
 * @parent_fd.  What someone else put there meanwhile is left as it is: the
 * caller's next open and checks judge it.  0, or -1 with errno set.
 */
static int dir_make(int parent_fd, const char *name)
{
	struct stat st;
	int fd, rc = 0, errnum = 0;

	if (mkdirat(parent_fd, name, NEW_DIR_MODE) != 0)
		return errno == EEXIST ? 0 : -1;
	fd = openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ELOOP || errno == ENOTDIR ? 0 : -1;
	if (fstat(fd, &st) != 0 ||
	    (st.st_uid == geteuid() && fchmod(fd, NEW_DIR_MODE) != 0)) {
		rc = -1;
		errnum = errno;
	}
	close(fd);
	if (rc) {
		errno = errnum;
		return rc;
	}
	return dir_sync(parent_fd);
}

/*
 * Say why @name in @step's directory could not be opened (errno); the
 * prefix names it.
 */
static void dir_step_fail(const struct dir_step *step, const char *name)
{
	int open_errno = errno;
	struct stat st;

	if ((open_errno == ELOOP || open_errno == ENOTDIR) &&
	    fstatat(step->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		diag_path(step->prefix, "not followed: a symbolic link (name the directory it leads to)");
	else
		diag_path(step->prefix, "%s", strerror(open_errno));
}

/* The absolute form of @path: @path itself, or after the working directory. */
static char *absolute_path(const char *path)
{
	char *cwd, *abs = NULL;

	if (path[0] == '/')
		return strdup(path);
	cwd = getcwd(NULL, 0);
	if (!cwd)
		return NULL;
	if (asprintf(&abs, "%s/%s", cwd, path) < 0)
		abs = NULL;
	free(cwd);
	return abs;
}

/* The next component at or after @at, skipping slashes and "." ("a/./b" is "a/b"). */
static char *next_component(char *at)
{
	for (;;) {
		at += strspn(at, "/");
		if (at[0] != '.' || (at[1] != '/' && at[1] != '\0'))
			return at;
		at++;
	}
}

int safe_dir_open(const char *path, int flags)
{
	struct dir_step step = { .fd = -1 };
	char *abs, *component, *end;
	char saved;
	int next, checked, rd = -1;

	if (!*path) {
		diag_message("an empty directory name");
		return -1;
	}
	abs = absolute_path(path);
	if (!abs) {
		diag_path(path, "%s", strerror(errno));
		return -1;
	}
	step.prefix = abs;
	step.fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (step.fd < 0) {
		diag_path("/", "%s", strerror(errno));
		goto out_abs;
	}
	/* step.fd is the directory that abs names up to @end: "/" first. */
	end = abs + 1;
	for (;;) {
		component = next_component(end);
		step.last = !*component;
		saved = *end;
		*end = '\0';
		checked = dir_step_check(&step, flags);
		*end = saved;
		if (checked != 0)
			goto out_fd;
		if (step.last)
			break;
		/* Until it is open, abs names this component. */
		end = component + strcspn(component, "/");
		saved = *end;
		*end = '\0';
		next = openat(step.fd, component,
			      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && (flags & SAFE_DIR_MAKE_PARENTS)) {
			if (dir_make(step.fd, component) != 0) {
				diag_path(abs, "cannot make it: %s", strerror(errno));
				goto out_fd;
			}
			next = openat(step.fd, component,
				      O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (next < 0) {
			dir_step_fail(&step, component);
			goto out_fd;
		}
		*end = saved;
		close(step.fd);
		step.fd = next;
	}
	rd = dir_reopen(step.fd);
	if (rd < 0)
		diag_path(path, "%s", strerror(errno));
out_fd:
	close(step.fd);
out_abs:
	free(abs);
	return rd;
}

char *safe_file_dir_of(const char *path, const char **name)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir;

	if (!*base || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
		errno = EINVAL;
		return NULL;
	}
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (dir)
		*name = base;
	return dir;
}

/* ---- files -------------------------------------------------------------- */

/*
 * ".NAME.RANDOM" (NAME shortened to fit): hidden, and not ending as NAME
 * does, so the textfile collector (*.prom) and systemd (*.mount) skip it.
 * Returns 0, or -1 with errno set.
 */
static int temp_name_make(struct safe_file *file)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";
	unsigned char random[TEMP_RANDOM_CHARS];
	size_t keep = strlen(file->name), i, at;
	ssize_t got = getrandom(random, sizeof(random), 0);

	if (got != (ssize_t)sizeof(random)) {
		if (got >= 0)
			errno = EIO; /* short: no errno of its own */
		return -1;
	}
	if (keep > NAME_MAX - TEMP_RANDOM_CHARS - 2)
		keep = NAME_MAX - TEMP_RANDOM_CHARS - 2;
	at = (size_t)snprintf(file->temp_name, sizeof(file->temp_name), ".%.*s.",
			      (int)keep, file->name);
	for (i = 0; i < TEMP_RANDOM_CHARS; i++)
		file->temp_name[at++] = alphabet[random[i] & 63];
	file->temp_name[at] = '\0';
	return 0;
}

/* "btrfs-ino: DIR/NAME: MESSAGE". */
static void safe_file_diag(const struct safe_file *file, const char *message)
{
	char *path = NULL;

	if (asprintf(&path, "%s/%s", file->dir_path, file->name) < 0) {
		diag_message("%s", message);
		return;
	}
	diag_path(path, "%s", message);
	free(path);
}

int safe_file_begin(struct safe_file *file, int dir_fd, const char *dir_path,
		    const char *name)
{
	int tries;

	*file = (struct safe_file){ .dir_fd = dir_fd, .dir_path = dir_path,
				    .name = name, .fd = -1 };
	if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
	    strcmp(name, "..") == 0 || strlen(name) > NAME_MAX) {
		safe_file_diag(file, "not a file name");
		return -1;
	}
	for (tries = 0; tries < TEMP_TRIES && file->fd < 0; tries++) {
		if (temp_name_make(file) != 0)
			break;
		file->fd = openat(dir_fd, file->temp_name,
				  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				  0600);
		if (file->fd < 0 && errno != EEXIST)
			break;
	}
	if (file->fd < 0) {
		safe_file_diag(file, strerror(errno));
		return -1;
	}
	return 0;
}

int safe_file_write(struct safe_file *file, const void *buf, size_t len)
{
	const char *at = buf;
	ssize_t n;

	while (len) {
		n = write(file->fd, at, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			safe_file_diag(file, strerror(errno));
			return -1;
		}
		at += n;
		len -= (size_t)n;
	}
	return 0;
}

int safe_file_commit(struct safe_file *file, mode_t mode)
{
	int fd = file->fd;

	file->fd = -1;
	if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		safe_file_diag(file, strerror(errno));
		close(fd);
		goto out_unlink;
	}
	if (close(fd) != 0) {
		safe_file_diag(file, strerror(errno));
		goto out_unlink;
	}
	if (renameat(file->dir_fd, file->temp_name, file->dir_fd, file->name) != 0) {
		safe_file_diag(file, strerror(errno));
		goto out_unlink;
	}
	if (fsync(file->dir_fd) != 0) {
		safe_file_diag(file, strerror(errno));
		return -1;
	}
	return 0;
out_unlink:
	unlinkat(file->dir_fd, file->temp_name, 0);
	return -1;
}

void safe_file_discard(struct safe_file *file)
{
	if (file->fd < 0)
		return;
	close(file->fd);
	file->fd = -1;
	unlinkat(file->dir_fd, file->temp_name, 0);
}
