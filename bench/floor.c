/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * floor: the least a walker must do, as a yardstick for btrfs-ino walk.
 *
 *   floor --stat-all  ROOT   fstatat() every entry
 *   floor --dirs-only ROOT   fstatat() directories only; other entries take
 *                            d_ino from getdents64 and st_dev from their
 *                            directory
 *
 * Prints "%dev %ino %path\n" per entry, like find ROOT -printf '%D %i %p\n'
 * (the same set of lines, in another order).  Components:
 *
 *  - An explicit stack of frames, one per directory being walked, so depth
 *    costs heap, never C stack.  Each frame keeps its directory open; a
 *    child is opened with openat() relative to it.
 *  - floor_read_dir(): a directory is read whole with getdents64 when it is
 *    entered; every entry is printed then, its subdirectories are packed
 *    into the frame and entered one by one afterwards.
 *  - A 1 MiB output buffer written with write(2), numbers formatted by hand.
 *
 * No loop detection, no mount handling, no fd bounding: a floor, not a tool.
 * Errors on an entry are reported on stderr and the walk goes on; exit
 * status 1 if there were any.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GETDENTS_BUFFER_SIZE (64 * 1024)
#define OUTPUT_BUFFER_SIZE (1024 * 1024)

/* What getdents64 returns; glibc does not declare it. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* A subdirectory still to enter: packed, 8-byte aligned, name NUL-ended. */
struct subdir {
	uint64_t dev;
	uint16_t name_len;
	char name[];
};

struct frame {
	int fd;
	uint64_t dev;
	size_t path_len; /* this directory's path in floor->path */
	char *subdirs;
	size_t subdirs_len;
	size_t subdirs_cap;
	size_t next_subdir;
};

struct floor {
	bool stat_all;
	bool failed;
	char *path;
	size_t path_cap;
	struct frame *stack;
	size_t depth;
	size_t stack_cap;
	char *out;
	size_t out_len;
	char dents[GETDENTS_BUFFER_SIZE];
};

static void *floor_xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		perror("floor");
		exit(2);
	}
	return p;
}

static void floor_flush(struct floor *floor)
{
	size_t done = 0;

	while (done < floor->out_len) {
		ssize_t n = write(STDOUT_FILENO, floor->out + done,
				  floor->out_len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror("floor: write");
			exit(2);
		}
		done += (size_t)n;
	}
	floor->out_len = 0;
}

static void floor_put_u64(struct floor *floor, uint64_t value)
{
	char digits[20];
	int n = 0;

	do {
		digits[n++] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	while (n)
		floor->out[floor->out_len++] = digits[--n];
}

/* "DEV INO PATH\n" for the path currently in floor->path (len bytes). */
static void floor_print(struct floor *floor, uint64_t dev, uint64_t ino,
			size_t len)
{
	if (floor->out_len + len + 48 > OUTPUT_BUFFER_SIZE) {
		floor_flush(floor);
		if (len + 48 > OUTPUT_BUFFER_SIZE) {
			/* A path longer than the buffer: write it as it is. */
			char head[48];
			int n = snprintf(head, sizeof(head), "%llu %llu ",
					 (unsigned long long)dev,
					 (unsigned long long)ino);

			if (write(STDOUT_FILENO, head, (size_t)n) < 0 ||
			    write(STDOUT_FILENO, floor->path, len) < 0 ||
			    write(STDOUT_FILENO, "\n", 1) < 0) {
				perror("floor: write");
				exit(2);
			}
			return;
		}
	}
	floor_put_u64(floor, dev);
	floor->out[floor->out_len++] = ' ';
	floor_put_u64(floor, ino);
	floor->out[floor->out_len++] = ' ';
	memcpy(floor->out + floor->out_len, floor->path, len);
	floor->out_len += len;
	floor->out[floor->out_len++] = '\n';
}

/* Append "/name" after the first len bytes; returns the new length. */
static size_t floor_path_append(struct floor *floor, size_t len,
				const char *name, size_t name_len)
{
	bool slash = len > 0 && floor->path[len - 1] != '/';
	size_t need = len + slash + name_len + 1;

	if (need > floor->path_cap) {
		while (floor->path_cap < need)
			floor->path_cap *= 2;
		floor->path = floor_xrealloc(floor->path, floor->path_cap);
	}
	if (slash)
		floor->path[len++] = '/';
	memcpy(floor->path + len, name, name_len + 1);
	return len + name_len;
}

static void floor_error(struct floor *floor, size_t len, const char *what)
{
	int saved = errno;

	floor->path[len] = '\0';
	fprintf(stderr, "floor: %s: %s: %s\n", floor->path, what,
		strerror(saved));
	floor->failed = true;
}

static void floor_push_subdir(struct frame *frame, uint64_t dev,
			      const char *name, size_t name_len)
{
	size_t size = (sizeof(struct subdir) + name_len + 1 + 7) & ~(size_t)7;
	struct subdir *subdir;

	if (frame->subdirs_len + size > frame->subdirs_cap) {
		frame->subdirs_cap = frame->subdirs_cap ? frame->subdirs_cap * 2 : 4096;
		while (frame->subdirs_cap < frame->subdirs_len + size)
			frame->subdirs_cap *= 2;
		frame->subdirs = floor_xrealloc(frame->subdirs, frame->subdirs_cap);
	}
	subdir = (struct subdir *)(frame->subdirs + frame->subdirs_len);
	subdir->dev = dev;
	subdir->name_len = (uint16_t)name_len;
	memcpy(subdir->name, name, name_len + 1);
	frame->subdirs_len += size;
}

/* Print every entry of the directory on top; remember its subdirectories. */
static void floor_read_dir(struct floor *floor)
{
	struct frame *frame = &floor->stack[floor->depth - 1];
	long n;

	while ((n = syscall(SYS_getdents64, frame->fd, floor->dents,
			    sizeof(floor->dents))) > 0) {
		for (long off = 0; off < n;) {
			struct linux_dirent64 *d =
				(struct linux_dirent64 *)(floor->dents + off);
			const char *name = d->d_name;
			size_t name_len, len;
			uint64_t dev = frame->dev, ino = d->d_ino;
			bool dir = d->d_type == DT_DIR;

			off += d->d_reclen;
			if (name[0] == '.' &&
			    (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			name_len = strlen(name);
			len = floor_path_append(floor, frame->path_len, name,
						name_len);
			if (floor->stat_all || dir || d->d_type == DT_UNKNOWN) {
				struct stat st;

				if (fstatat(frame->fd, name, &st,
					    AT_SYMLINK_NOFOLLOW) != 0) {
					floor_error(floor, len, "fstatat");
					continue;
				}
				dev = st.st_dev;
				ino = st.st_ino;
				dir = S_ISDIR(st.st_mode);
			}
			floor_print(floor, dev, ino, len);
			if (dir)
				floor_push_subdir(frame, dev, name, name_len);
		}
	}
	if (n < 0)
		floor_error(floor, frame->path_len, "getdents64");
}

static void floor_push(struct floor *floor, int fd, uint64_t dev,
		       size_t path_len)
{
	struct frame *frame;

	if (floor->depth == floor->stack_cap) {
		floor->stack_cap = floor->stack_cap ? floor->stack_cap * 2 : 64;
		floor->stack = floor_xrealloc(floor->stack, floor->stack_cap *
							     sizeof(*floor->stack));
	}
	frame = &floor->stack[floor->depth++];
	memset(frame, 0, sizeof(*frame));
	frame->fd = fd;
	frame->dev = dev;
	frame->path_len = path_len;
	floor_read_dir(floor);
}

static void floor_walk(struct floor *floor, const char *root)
{
	size_t len = strlen(root);
	struct stat st;
	int fd;

	if (len + 1 > floor->path_cap) {
		floor->path_cap = len + 1;
		floor->path = floor_xrealloc(floor->path, floor->path_cap);
	}
	memcpy(floor->path, root, len + 1);
	if (lstat(root, &st) != 0) {
		floor_error(floor, len, "lstat");
		return;
	}
	floor_print(floor, st.st_dev, st.st_ino, len);
	if (!S_ISDIR(st.st_mode))
		return;
	fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		floor_error(floor, len, "open");
		return;
	}
	floor_push(floor, fd, st.st_dev, len);

	while (floor->depth) {
		struct frame *frame = &floor->stack[floor->depth - 1];
		struct subdir *subdir;
		size_t child_len;
		uint64_t child_dev;
		int child_fd;

		if (frame->next_subdir >= frame->subdirs_len) {
			close(frame->fd);
			free(frame->subdirs);
			floor->depth--;
			continue;
		}
		subdir = (struct subdir *)(frame->subdirs + frame->next_subdir);
		frame->next_subdir +=
			(sizeof(*subdir) + subdir->name_len + 1 + 7) & ~(size_t)7;
		child_len = floor_path_append(floor, frame->path_len,
					      subdir->name, subdir->name_len);
		child_dev = subdir->dev;
		child_fd = openat(frame->fd, subdir->name,
				  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (child_fd < 0) {
			floor_error(floor, child_len, "openat");
			continue;
		}
		/* frame may move: floor_push reallocates the stack. */
		floor_push(floor, child_fd, child_dev, child_len);
	}
}

int main(int argc, char **argv)
{
	static struct floor floor;

	if (argc < 3 || (strcmp(argv[1], "--stat-all") &&
			  strcmp(argv[1], "--dirs-only"))) {
		fprintf(stderr, "Usage: floor --stat-all|--dirs-only ROOT...\n");
		return 2;
	}
	floor.stat_all = !strcmp(argv[1], "--stat-all");
	floor.path_cap = 4096;
	floor.path = floor_xrealloc(NULL, floor.path_cap);
	floor.out = floor_xrealloc(NULL, OUTPUT_BUFFER_SIZE);
	for (int i = 2; i < argc; i++)
		floor_walk(&floor, argv[i]);
	floor_flush(&floor);
	return floor.failed ? 1 : 0;
}
