/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The client keys (client filesystem, inode) of one audited path, in memory
 * that follows the number of keys met more than once, not the tree.
 * Components:
 *
 *  - inoset (inoset.c, in nlink/): the compressed sets of inode numbers
 *    that the rest is made of.
 *  - Identities: the (client filesystem, dev, subvolume) triples met, each
 *    with the set of inode numbers whose key was first met in it, and the
 *    set of those with more than one name when the audit read it.  Each is
 *    allocated on its own, so that the audit may hold one while others are
 *    added (the array of them grows).
 *  - Per client filesystem, the set of every inode number met, and the set
 *    of those whose key was met in a second identity (collided); per
 *    identity, the set of the keys whose second identity it was (other).
 *    A key met in several identities is counted from these sets alone: its
 *    first identity is the one whose first set holds it, its other the one
 *    whose other set does, whether it collided already the collided set.
 *  - Groups: the audit's state (struct ckey_group) of a key that these sets
 *    cannot tell, in a uthash: made (bino__ckey_table_group()) only when the
 *    audit asks, for a key met again in its first identity or with several
 *    links (audit_count.c says why).  On a snapshot of a tree without hard
 *    links no key has one: memory follows the hard-linked keys, not the
 *    colliding ones (about 130 bytes a group, a few bits a key in the sets).
 */
#include "ckeys.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "hash.h"

struct identity_node {
	struct {
		uint64_t client_fs, dev, subvolid;
	} key;
	uint32_t index;
	UT_hash_handle hh;
};

struct identity {
	struct ckey_identity id;
	struct inoset first; /* keys first met in this identity */
	struct inoset other; /* keys whose second identity this was */
	struct inoset links; /* inodes with several names */
};

struct group_node {
	struct {
		uint64_t client_fs, ino;
	} key;
	struct ckey_group group;
	UT_hash_handle hh;
};

struct ckey_table {
	struct identity **identities; /* by index, each allocated alone */
	size_t n_identities, cap_identities;
	struct identity_node *identity_index;
	uint32_t last_identity; /* consecutive entries share theirs */
	uint32_t last_first; /* and so do the keys they collide with */
	struct inoset *seen; /* per client filesystem */
	struct inoset *collided; /* per client filesystem, n_seen too */
	size_t n_seen, cap_seen, cap_collided;
	struct group_node *groups;
	size_t n_groups;
};

/* ---- the table --------------------------------------------------------- */

enum bino_error bino__ckey_table_create(struct ckey_table **ret)
{
	struct ckey_table *table = calloc(1, sizeof(*table));

	if (!table)
		return BINO_ERROR_NO_MEMORY;
	table->last_identity = CKEY_NONE;
	table->last_first = CKEY_NONE;
	*ret = table;
	return BINO_OK;
}

void bino__ckey_table_destroy(struct ckey_table *table)
{
	struct identity_node *inode, *itmp;
	struct group_node *gnode, *gtmp;
	size_t i;

	if (!table)
		return;
	HASH_ITER(hh, table->identity_index, inode, itmp) {
		HASH_DEL(table->identity_index, inode);
		free(inode);
	}
	for (i = 0; i < table->n_identities; i++) {
		bino__inoset_clear(&table->identities[i]->first);
		bino__inoset_clear(&table->identities[i]->links);
		bino__inoset_clear(&table->identities[i]->other);
		free(table->identities[i]);
	}
	free(table->identities);
	for (i = 0; i < table->n_seen; i++) {
		bino__inoset_clear(&table->seen[i]);
		bino__inoset_clear(&table->collided[i]);
	}
	free(table->seen);
	free(table->collided);
	HASH_ITER(hh, table->groups, gnode, gtmp) {
		HASH_DEL(table->groups, gnode);
		free(gnode);
	}
	free(table);
}

enum bino_error bino__ckey_identity(struct ckey_table *table, size_t client_fs,
				    uint64_t dev, uint64_t subvolid,
				    uint32_t *ret)
{
	struct identity_node *node, probe;
	struct identity *identity;
	bool out_of_memory = false;

	if (table->last_identity != CKEY_NONE) {
		const struct ckey_identity *last =
			&table->identities[table->last_identity]->id;

		if (last->client_fs == client_fs && last->dev == dev &&
		    last->subvolid == subvolid) {
			*ret = table->last_identity;
			return BINO_OK;
		}
	}
	memset(&probe, 0, sizeof(probe));
	probe.key.client_fs = client_fs;
	probe.key.dev = dev;
	probe.key.subvolid = subvolid;
	HASH_FIND(hh, table->identity_index, &probe.key, sizeof(probe.key),
		  node);
	if (node) {
		table->last_identity = node->index;
		*ret = node->index;
		return BINO_OK;
	}
	/* Indexes are uint32_t, CKEY_NONE excluded. */
	if (table->n_identities >= CKEY_NONE ||
	    ARRAY_RESERVE(table->identities, table->cap_identities,
			  table->n_identities + 1))
		return BINO_ERROR_NO_MEMORY;
	identity = calloc(1, sizeof(*identity));
	node = calloc(1, sizeof(*node));
	if (!identity || !node)
		goto out_free;
	node->key = probe.key;
	node->index = (uint32_t)table->n_identities;
	HASH_ADD(hh, table->identity_index, key, sizeof(node->key), node);
	if (out_of_memory)
		goto out_free;
	table->identities[table->n_identities++] = identity;
	identity->id.client_fs = client_fs;
	identity->id.dev = dev;
	identity->id.subvolid = subvolid;
	table->last_identity = node->index;
	*ret = node->index;
	return BINO_OK;

out_free:
	free(node);
	free(identity);
	return BINO_ERROR_NO_MEMORY;
}

struct ckey_identity *bino__ckey_identity_get(const struct ckey_table *table,
					      uint32_t index)
{
	assert(index < table->n_identities);
	return &table->identities[index]->id;
}

struct inoset *bino__ckey_identity_links(struct ckey_table *table,
					 uint32_t index)
{
	assert(index < table->n_identities);
	return &table->identities[index]->links;
}

bool bino__ckey_table_seen(const struct ckey_table *table, size_t client_fs,
			   uint64_t ino)
{
	return client_fs < table->n_seen &&
	       bino__inoset_contains(&table->seen[client_fs], ino);
}

struct ckey_group *bino__ckey_table_find(const struct ckey_table *table,
					 size_t client_fs, uint64_t ino)
{
	struct group_node probe, *node;

	memset(&probe, 0, sizeof(probe));
	probe.key.client_fs = client_fs;
	probe.key.ino = ino;
	HASH_FIND(hh, table->groups, &probe.key, sizeof(probe.key), node);
	return node ? &node->group : NULL;
}

size_t bino__ckey_table_group_count(const struct ckey_table *table)
{
	return table->n_groups;
}

/* The identity in which the key (@client_fs, @ino) was first met. */
static uint32_t ckey_first_identity(struct ckey_table *table, size_t client_fs,
				    uint64_t ino, uint32_t hint)
{
	uint32_t i;

	if (hint != CKEY_NONE &&
	    bino__inoset_contains(&table->identities[hint]->first, ino))
		return hint;
	if (table->last_first != CKEY_NONE &&
	    bino__inoset_contains(&table->identities[table->last_first]->first,
				  ino))
		return table->last_first;
	for (i = 0; i < table->n_identities; i++) {
		if (table->identities[i]->id.client_fs == client_fs &&
		    bino__inoset_contains(&table->identities[i]->first, ino)) {
			table->last_first = i;
			return i;
		}
	}
	assert(!"a key met has an identity it was first met in");
	return CKEY_NONE;
}

enum bino_error bino__ckey_table_add(struct ckey_table *table, uint32_t identity,
				     uint64_t ino, uint32_t *first,
				     struct ckey_group **ret)
{
	size_t client_fs;
	int added;

	assert(identity < table->n_identities);
	client_fs = table->identities[identity]->id.client_fs;
	*ret = NULL;
	*first = CKEY_NONE;
	if (client_fs >= table->n_seen) {
		if (client_fs == SIZE_MAX ||
		    ARRAY_RESERVE(table->seen, table->cap_seen, client_fs + 1) ||
		    ARRAY_RESERVE(table->collided, table->cap_collided,
				  client_fs + 1))
			return BINO_ERROR_NO_MEMORY;
		memset(table->seen + table->n_seen, 0,
		       (client_fs + 1 - table->n_seen) * sizeof(*table->seen));
		memset(table->collided + table->n_seen, 0,
		       (client_fs + 1 - table->n_seen) *
			       sizeof(*table->collided));
		table->n_seen = client_fs + 1;
	}
	added = bino__inoset_add(&table->seen[client_fs], ino);
	if (added < 0)
		return BINO_ERROR_NO_MEMORY;
	if (added)
		return bino__inoset_add(&table->identities[identity]->first, ino) < 0 ?
			       BINO_ERROR_NO_MEMORY :
			       BINO_OK;
	*ret = bino__ckey_table_find(table, client_fs, ino);
	*first = *ret ? (*ret)->plain.first :
			ckey_first_identity(table, client_fs, ino, identity);
	return BINO_OK;
}

enum bino_error bino__ckey_table_collide(struct ckey_table *table,
					 uint32_t other, uint64_t ino,
					 bool *first_time)
{
	enum inoset_added added;
	size_t client_fs;

	assert(other < table->n_identities);
	client_fs = table->identities[other]->id.client_fs;
	assert(client_fs < table->n_seen);
	added = bino__inoset_add(&table->collided[client_fs], ino);
	*first_time = added == INOSET_ADDED;
	if (*first_time &&
	    bino__inoset_add(&table->identities[other]->other, ino) ==
		    INOSET_NO_MEMORY)
		return BINO_ERROR_NO_MEMORY;
	return added == INOSET_NO_MEMORY ? BINO_ERROR_NO_MEMORY : BINO_OK;
}

bool bino__ckey_table_collided(const struct ckey_table *table,
			       size_t client_fs, uint64_t ino)
{
	return client_fs < table->n_seen &&
	       bino__inoset_contains(&table->collided[client_fs], ino);
}

/* The identity whose other set holds the key (@client_fs, @ino). */
static uint32_t ckey_other_identity(const struct ckey_table *table,
				    size_t client_fs, uint64_t ino)
{
	uint32_t i;

	for (i = 0; i < table->n_identities; i++) {
		if (table->identities[i]->id.client_fs == client_fs &&
		    bino__inoset_contains(&table->identities[i]->other, ino))
			return i;
	}
	assert(!"a collided key has an identity it collided in");
	return CKEY_NONE;
}

enum bino_error bino__ckey_table_group(struct ckey_table *table,
				       size_t client_fs, uint64_t ino,
				       uint32_t first, struct ckey_group **ret)
{
	struct group_node *node;
	bool out_of_memory = false, collided;

	assert(bino__ckey_table_seen(table, client_fs, ino));
	*ret = bino__ckey_table_find(table, client_fs, ino);
	if (*ret)
		return BINO_OK;
	node = calloc(1, sizeof(*node));
	if (!node)
		return BINO_ERROR_NO_MEMORY;
	node->key.client_fs = client_fs;
	node->key.ino = ino;
	HASH_ADD(hh, table->groups, key, sizeof(node->key), node);
	if (out_of_memory) {
		free(node);
		return BINO_ERROR_NO_MEMORY;
	}
	table->n_groups++;
	collided = bino__ckey_table_collided(table, client_fs, ino);
	node->group.plain.first = first;
	node->group.plain.other =
		collided ? ckey_other_identity(table, client_fs, ino) : CKEY_NONE;
	/* Once collided, the count of paths no longer matters: at least 2. */
	node->group.plain.paths = collided ? 2 : 1;
	node->group.link.first = CKEY_NONE;
	node->group.link.other = CKEY_NONE;
	node->group.pending = CKEY_NONE;
	node->group.pending_tail = CKEY_NONE;
	*ret = &node->group;
	return BINO_OK;
}
