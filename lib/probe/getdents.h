/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * getdents64(2): the walk, its helper threads (dirread.c) and the audit read
 * directories whole, in large buffers, which readdir(3) cannot; glibc
 * (Debian 12's 2.36) neither wraps the call nor declares its record.  The
 * record loop over a buffer is written once, in bino__dirents_next().
 */
#ifndef BINO_GETDENTS_H
#define BINO_GETDENTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Fill @buffer with records, a thin wrapper of the call: bytes read, 0 at
 * the end, -1 with errno.
 */
static inline long bino__getdents64(int fd, void *buffer, size_t size)
{
	return syscall(SYS_getdents64, fd, buffer, size);
}

/*
 * A directory read record by record through the caller's buffer (8-byte
 * aligned), one getdents64 call per bufferful.  Set it up with
 * bino__dirents_init(), then call bino__dirents_next() until it returns 0.
 */
struct bino_dirents {
	int fd;
	char *buffer;
	size_t size;
	long len; /* bytes of records in the buffer */
	long offset; /* of the next record in it */
};

static inline void bino__dirents_init(struct bino_dirents *dirents, int fd,
				      void *buffer, size_t size)
{
	dirents->fd = fd;
	dirents->buffer = buffer;
	dirents->size = size;
	dirents->len = 0;
	dirents->offset = 0;
}

/* What bino__dirents_next() found; callers compare the values: fixed. */
enum bino_dirents_next {
	BINO_DIRENTS_FAILED = -1, /* getdents64 failed: errno set */
	BINO_DIRENTS_END = 0,
	BINO_DIRENTS_RECORD = 1, /* *@ret points into the buffer */
};

/*
 * The next record other than "." and "..", *@ret valid until the next
 * call.
 */
static inline enum bino_dirents_next
bino__dirents_next(struct bino_dirents *dirents,
		   const struct linux_dirent64 **ret)
{
	for (;;) {
		const struct linux_dirent64 *dent;

		if (dirents->offset >= dirents->len) {
			dirents->len = bino__getdents64(dirents->fd,
							dirents->buffer,
							dirents->size);
			dirents->offset = 0;
			if (dirents->len <= 0)
				return dirents->len < 0 ? BINO_DIRENTS_FAILED :
							  BINO_DIRENTS_END;
		}
		dent = (const void *)(dirents->buffer + dirents->offset);
		dirents->offset += dent->d_reclen;
		if (strcmp(dent->d_name, ".") != 0 &&
		    strcmp(dent->d_name, "..") != 0) {
			*ret = dent;
			return BINO_DIRENTS_RECORD;
		}
	}
}

#endif
