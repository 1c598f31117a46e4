/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Sets of identity keys, and what membership means: key equality.  The set
 * is a uthash table; callers add only what they must remember
 * (multiply-linked inodes, ancestors), so its size follows that, not the
 * tree.  How an inode gets its key is identity.c's job.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"

struct idset_member {
	struct bino_key key;
	UT_hash_handle hh;
};

struct bino_idset {
	struct idset_member *members;
};

BINO_PUBLIC bool bino_key_equal(const struct bino_key *a,
				const struct bino_key *b)
{
	if (!a || !b)
		return false;
	return a->dev == b->dev && a->subvolid == b->subvolid &&
	       a->ino == b->ino;
}

BINO_PUBLIC enum bino_error bino_idset_create(struct bino_idset **ret)
{
	struct bino_idset *set;

	if (!ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	set = calloc(1, sizeof(*set));
	if (!set)
		return BINO_ERROR_NO_MEMORY;
	*ret = set;
	return BINO_OK;
}

static struct idset_member *idset_find(const struct bino_idset *set,
				       const struct bino_key *key)
{
	struct idset_member *found;
	/* The struct has no padding, but hash a zeroed copy to be sure. */
	struct bino_key probe;

	memset(&probe, 0, sizeof(probe));
	probe.dev = key->dev;
	probe.subvolid = key->subvolid;
	probe.ino = key->ino;
	HASH_FIND(hh, set->members, &probe, sizeof(probe), found);
	return found;
}

BINO_PUBLIC enum bino_error bino_idset_add(struct bino_idset *set,
					   const struct bino_key *key,
					   bool *was_present)
{
	struct idset_member *member;
	bool out_of_memory = false;

	if (!set || !key)
		return BINO_ERROR_INVALID_ARGUMENT;

	if (idset_find(set, key)) {
		if (was_present)
			*was_present = true;
		return BINO_OK;
	}
	member = calloc(1, sizeof(*member));
	if (!member)
		return BINO_ERROR_NO_MEMORY;
	member->key.dev = key->dev;
	member->key.subvolid = key->subvolid;
	member->key.ino = key->ino;
	HASH_ADD(hh, set->members, key, sizeof(member->key), member);
	if (out_of_memory) {
		free(member);
		return BINO_ERROR_NO_MEMORY;
	}
	if (was_present)
		*was_present = false;
	return BINO_OK;
}

BINO_PUBLIC bool bino_idset_contains(const struct bino_idset *set,
				     const struct bino_key *key)
{
	if (!set || !key)
		return false;
	return idset_find(set, key) != NULL;
}

BINO_PUBLIC size_t bino_idset_count(const struct bino_idset *set)
{
	if (!set)
		return 0;
	return HASH_COUNT(set->members);
}

BINO_PUBLIC void bino_idset_destroy(struct bino_idset *set)
{
	struct idset_member *member, *tmp;

	if (!set)
		return;
	HASH_ITER(hh, set->members, member, tmp) {
		HASH_DEL(set->members, member);
		free(member);
	}
	free(set);
}
