/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * getdents64(2): the walk, its read-ahead helpers and the audit read
 * directories whole, in large buffers, which readdir(3) cannot; glibc
 * (Debian 12's 2.36) neither wraps the call nor declares its record.
 */
#ifndef BINO_GETDENTS_H
#define BINO_GETDENTS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Fill @buffer with records; bytes read, 0 at the end, -1 with errno. */
static inline long bino__getdents64(int fd, void *buffer, size_t size)
{
	return syscall(SYS_getdents64, fd, buffer, size);
}

#endif
