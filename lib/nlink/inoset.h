/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Sets of inode numbers, compressed (inoset.c): what the nlink sources hand the audit. */
#ifndef BINO_INOSET_H
#define BINO_INOSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A CRoaring bitmap per 2^32 inode numbers; zero-filled is empty. */
struct inoset {
	struct inoset_part *parts;
	size_t n_parts, cap_parts;
};

bool bino__inoset_contains(const struct inoset *set, uint64_t ino);
/* What bino__inoset_add() did; the values are fixed (callers compare them). */
enum inoset_added {
	INOSET_NO_MEMORY = -1, /* nothing added */
	INOSET_PRESENT = 0, /* @ino was in the set already */
	INOSET_ADDED = 1,
};

enum inoset_added bino__inoset_add(struct inoset *set, uint64_t ino);
/* Empty it, releasing its memory. */
void bino__inoset_clear(struct inoset *set);

#endif
