/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sets of inode numbers, compressed: a CRoaring bitmap per 2^32 numbers
 * (Debian 12's CRoaring 0.2.66 has no 64-bit bitmaps).  Dense inode numbers
 * (btrfs, ext4, xfs allocate them close together) cost a few bits each.
 * The nlink sources (nlink_tree.c, nlink_scan.c) fill them; the audit's
 * client key table (ckeys.c) keeps them.
 */
#include "inoset.h"

#include <stdlib.h>

#include <roaring/roaring.h>

#include "array.h"

struct inoset_part {
	uint32_t high;
	roaring_bitmap_t *bits;
};

static struct inoset_part *inoset_part(const struct inoset *set, uint32_t high)
{
	size_t i;

	for (i = 0; i < set->n_parts; i++) {
		if (set->parts[i].high == high)
			return &set->parts[i];
	}
	return NULL;
}

bool bino__inoset_contains(const struct inoset *set, uint64_t ino)
{
	const struct inoset_part *part = inoset_part(set, (uint32_t)(ino >> 32));

	return part && roaring_bitmap_contains(part->bits, (uint32_t)ino);
}

enum inoset_added bino__inoset_add(struct inoset *set, uint64_t ino)
{
	uint32_t high = (uint32_t)(ino >> 32);
	struct inoset_part *part = inoset_part(set, high);

	if (!part) {
		if (ARRAY_RESERVE(set->parts, set->cap_parts, set->n_parts + 1))
			return INOSET_NO_MEMORY;
		part = &set->parts[set->n_parts];
		part->high = high;
		part->bits = roaring_bitmap_create();
		if (!part->bits)
			return INOSET_NO_MEMORY;
		set->n_parts++;
	}
	return roaring_bitmap_add_checked(part->bits, (uint32_t)ino) ?
		       INOSET_ADDED : INOSET_PRESENT;
}

void bino__inoset_clear(struct inoset *set)
{
	size_t i;

	for (i = 0; i < set->n_parts; i++)
		roaring_bitmap_free(set->parts[i].bits);
	free(set->parts);
	set->parts = NULL;
	set->n_parts = 0;
	set->cap_parts = 0;
}
