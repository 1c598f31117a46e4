/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit's first pass: count each entry in the three collision classes,
 * from its ancestors (loops) and the client key table (hard links, plain),
 * with examples and subvolume pairs.
 *
 * Memory follows neither the tree nor the keys that collide: the client key
 * table (ckeys.c) keeps, per client filesystem, compressed bitmaps of the
 * inode numbers met and of those met in a second identity, and per identity
 * (client filesystem, dev, subvolume) those first met in it and those whose
 * second identity it was.  An entry of a key met before, in another
 * identity than the first and with one link, is counted from these sets
 * alone (audit_count_collided()): the plain class of such a key needs only
 * its first identity, whether it collided already, and which identity it
 * collided with first.  A key gets a record (a group, about 130 bytes) only
 * for what the sets cannot tell, in walk order:
 *  - met again in its first identity (a hard link, or a directory met
 *    twice): the number of its entries before it collides, and the first
 *    entry's nlink, now known (first_links);
 *  - met with several links: the hardlink class's own first identity,
 *    other and count, and its entries waiting for first_links.
 * So on snapshots of trees without hard links no key has a record; with
 * them, memory follows the hard-linked keys.  No path is kept per key.
 *
 * A key's first entry is not stat'ed (audit.c stats an entry only once its
 * key was met before): its group's first_links is unknown until another
 * entry of the same identity (the same inode) is stat'ed.  Until then its
 * hardlink-class entries wait in order on the group's pending list
 * (audit_group_wait()) and are replayed when it is known
 * (bino__audit_group_resolve()).
 *
 * Components: audit_add_pair() (subvolume pairs), audit_add_example() (the
 * first BINO_AUDIT_EXAMPLES_MAX per class, in walk order),
 * audit_group_add() (one entry in a class of its key's group), and
 * bino__audit_count() (one entry).
 */
#include "audit_state.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"

/* An entry counted in a key's group: identity @id, inode @ino. */
struct audit_meet {
	uint32_t id;
	uint64_t ino;
	const char *path;
	size_t client_fs;
	uint64_t seq; /* walk order */
};

/* An example as counting finds it, before audit_add_example() keeps it. */
struct audit_example_draft {
	enum bino_collision collision;
	uint64_t seq; /* walk order of the colliding entry */
	size_t client_fs;
	const char *path_a; /* NULL: found by the second walk */
	size_t len_a; /* of @path_a, a prefix of a longer path */
	struct bino_key key_a;
	uint32_t first_identity; /* of @path_a, for the second walk */
	const char *path_b; /* the colliding entry's */
	struct bino_key key_b;
};

static enum bino_error audit_add_pair(struct bino_audit_target *target,
				      uint64_t a, uint64_t b,
				      enum bino_collision collision,
				      uint64_t count)
{
	struct bino_audit_pair *pair;
	size_t i;

	if (a > b) {
		uint64_t t = a;

		a = b;
		b = t;
	}
	if (target->last_pair < target->n_pairs) {
		pair = &target->pairs[target->last_pair];
		if (pair->subvolid_a == a && pair->subvolid_b == b) {
			pair->collisions[collision] += count;
			return BINO_OK;
		}
	}
	for (i = 0; i < target->n_pairs; i++) {
		pair = &target->pairs[i];
		if (pair->subvolid_a == a && pair->subvolid_b == b) {
			pair->collisions[collision] += count;
			target->last_pair = i;
			return BINO_OK;
		}
	}
	if (ARRAY_RESERVE(target->pairs, target->cap_pairs,
			  target->n_pairs + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	target->last_pair = target->n_pairs;
	pair = &target->pairs[target->n_pairs++];
	memset(pair, 0, sizeof(*pair));
	pair->subvolid_a = a;
	pair->subvolid_b = b;
	pair->collisions[collision] = count;
	return BINO_OK;
}

/* Whether an entry of walk order @seq can still be an example of a class. */
static bool audit_example_wanted(const struct bino_audit_target *target,
				 enum bino_collision collision, uint64_t seq)
{
	size_t n = target->n_examples[collision];

	return n < BINO_AUDIT_EXAMPLES_MAX ||
	       seq < target->examples[collision][n - 1].seq;
}

/*
 * Keep an example in walk order (@draft->seq), the first
 * BINO_AUDIT_EXAMPLES_MAX only; its paths are copied.
 */
static enum bino_error audit_add_example(struct bino_audit_target *target,
					 const struct audit_example_draft *draft)
{
	enum bino_collision collision = draft->collision;
	struct bino_audit_example *examples = target->examples[collision];
	struct bino_audit_example example;
	size_t n = target->n_examples[collision], at;
	uint64_t seq = draft->seq;

	assert((unsigned int)collision < BINO_COLLISION_NR);
	assert(n <= BINO_AUDIT_EXAMPLES_MAX);
	if (!draft->path_b || !audit_example_wanted(target, collision, seq))
		return BINO_OK;
	memset(&example, 0, sizeof(example));
	example.path[0] = draft->path_a ?
				  strndup(draft->path_a, draft->len_a) :
				  NULL;
	example.path[1] = strdup(draft->path_b);
	if ((draft->path_a && !example.path[0]) || !example.path[1]) {
		free(example.path[0]);
		free(example.path[1]);
		return BINO_ERROR_NO_MEMORY;
	}
	example.key[0] = draft->key_a;
	example.key[1] = draft->key_b;
	example.client_fs = draft->client_fs;
	example.seq = seq;
	example.first_identity = draft->first_identity;
	if (n == BINO_AUDIT_EXAMPLES_MAX) {
		n--;
		free(examples[n].path[0]);
		free(examples[n].path[1]);
	}
	for (at = n; at > 0 && examples[at - 1].seq > seq; at--)
		;
	memmove(&examples[at + 1], &examples[at], (n - at) * sizeof(*examples));
	examples[at] = example;
	target->n_examples[collision] = n + 1;
	return BINO_OK;
}

/* The true identity of inode @ino in identity @index. */
static struct bino_key audit_key(const struct audit_walk *aw, uint32_t index,
				 uint64_t ino)
{
	const struct ckey_identity *id = bino__ckey_identity_get(aw->groups,
								 index);
	struct bino_key key = { id->dev, id->subvolid, ino };

	return key;
}

static uint64_t audit_subvolid(const struct audit_walk *aw, uint32_t index)
{
	return bino__ckey_identity_get(aw->groups, index)->subvolid;
}

/*
 * Count entry @meet in @class (of collision class @collision) of its
 * group: when the class first meets a second identity, every entry met so
 * far collides, then each one that follows.  Each colliding entry of
 * another identity than the first is an example.
 */
static enum bino_error audit_group_add(struct audit_walk *aw,
				       enum bino_collision collision,
				       struct ckey_class *class,
				       const struct audit_meet *meet)
{
	struct bino_audit_target *target = aw->target;
	struct audit_example_draft draft;
	uint64_t count;
	enum bino_error err;

	assert(class->paths == 0 || class->first != CKEY_NONE);
	class->paths++;
	if (class->paths == 1) {
		class->first = meet->id;
		return BINO_OK;
	}
	if (meet->id == class->first) {
		if (class->other == CKEY_NONE)
			return BINO_OK;
		/* It collides with the other identity already met. */
		target->collisions[collision]++;
		return audit_add_pair(target, audit_subvolid(aw, class->first),
				      audit_subvolid(aw, class->other),
				      collision, 1);
	}
	count = class->other == CKEY_NONE ? class->paths : 1;
	target->collisions[collision] += count;
	err = audit_add_pair(target, audit_subvolid(aw, class->first),
			     audit_subvolid(aw, meet->id), collision, count);
	if (class->other == CKEY_NONE)
		class->other = meet->id;
	if (err)
		return err;
	/* The first path is found by the second walk, from first_identity. */
	memset(&draft, 0, sizeof(draft));
	draft.collision = collision;
	draft.seq = meet->seq;
	draft.client_fs = meet->client_fs;
	draft.key_a = audit_key(aw, class->first, meet->ino);
	draft.first_identity = class->first;
	draft.path_b = meet->path;
	draft.key_b = audit_key(aw, meet->id, meet->ino);
	return audit_add_example(target, &draft);
}

/*
 * Count entry @meet, of a key without a group, in the plain class: as
 * audit_group_add() would with the group the sets tell
 * (bino__ckey_table_group()), whose paths count is 1 until the key
 * collides: its first collision counts both entries, each one after that
 * its own.
 */
static enum bino_error audit_count_collided(struct audit_walk *aw,
					    uint32_t first,
					    const struct audit_meet *meet)
{
	struct bino_audit_target *target = aw->target;
	struct audit_example_draft draft;
	uint64_t count;
	enum bino_error err;
	bool first_time;

	err = bino__ckey_table_collide(aw->groups, meet->id, meet->ino,
				       &first_time);
	if (err)
		return err;
	count = first_time ? 2 : 1;
	target->collisions[BINO_COLLISION_PLAIN] += count;
	err = audit_add_pair(target, audit_subvolid(aw, first),
			     audit_subvolid(aw, meet->id), BINO_COLLISION_PLAIN,
			     count);
	if (err)
		return err;
	memset(&draft, 0, sizeof(draft));
	draft.collision = BINO_COLLISION_PLAIN;
	draft.seq = meet->seq;
	draft.client_fs = meet->client_fs;
	draft.key_a = audit_key(aw, first, meet->ino);
	draft.first_identity = first;
	draft.path_b = meet->path;
	draft.key_b = audit_key(aw, meet->id, meet->ino);
	return audit_add_example(target, &draft);
}

enum bino_error bino__audit_group_resolve(struct audit_walk *aw,
					  struct ckey_group *group, bool links,
					  uint64_t ino, size_t client_fs)
{
	enum bino_error err = BINO_OK;
	uint32_t i;

	/* Known once: the pending entries are replayed once. */
	assert(group->first_links == CKEY_FIRST_LINKS_UNKNOWN);
	group->first_links = links ? CKEY_FIRST_LINKS_YES : CKEY_FIRST_LINKS_NO;
	if (links) {
		group->link.first = group->plain.first;
		group->link.paths = 1;
	}
	for (i = group->pending; i != CKEY_NONE; i = aw->events[i].next) {
		struct link_event *event = &aw->events[i];
		struct audit_meet meet = {
			.id = event->identity,
			.ino = ino,
			.path = event->path,
			.client_fs = client_fs,
			.seq = event->seq,
		};

		if (!err)
			err = audit_group_add(aw, BINO_COLLISION_HARDLINK,
					      &group->link, &meet);
		free(event->path);
		event->path = NULL;
	}
	group->pending = CKEY_NONE;
	group->pending_tail = CKEY_NONE;
	return err;
}

/* Queue a hardlink-class entry until the group's first_links is known. */
static enum bino_error audit_group_wait(struct audit_walk *aw,
					struct ckey_group *group,
					const struct audit_meet *meet)
{
	struct link_event *event;

	assert(group->first_links == CKEY_FIRST_LINKS_UNKNOWN);
	if (aw->n_events >= CKEY_NONE ||
	    ARRAY_RESERVE(aw->events, aw->cap_events, aw->n_events + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	if (group->pending == CKEY_NONE) {
		if (ARRAY_RESERVE(aw->waiting, aw->cap_waiting,
				  aw->n_waiting + 1) != 0)
			return BINO_ERROR_NO_MEMORY;
		aw->waiting[aw->n_waiting].client_fs = meet->client_fs;
		aw->waiting[aw->n_waiting++].ino = meet->ino;
	}
	event = &aw->events[aw->n_events];
	event->seq = meet->seq;
	event->identity = meet->id;
	event->next = CKEY_NONE;
	event->path = NULL;
	if (audit_example_wanted(aw->target, BINO_COLLISION_HARDLINK,
				 meet->seq)) {
		event->path = strdup(meet->path);
		if (!event->path)
			return BINO_ERROR_NO_MEMORY;
	}
	if (group->pending == CKEY_NONE)
		group->pending = (uint32_t)aw->n_events;
	else
		aw->events[group->pending_tail].next = (uint32_t)aw->n_events;
	group->pending_tail = (uint32_t)aw->n_events;
	aw->n_events++;
	return BINO_OK;
}

/*
 * A directory whose client key is an ancestor's: the client meets the same
 * directory again below itself (a loop), counted once, at the nearest such
 * ancestor.
 */
static enum bino_error audit_count_loop(struct audit_walk *aw,
					const char *path, int depth,
					uint64_t seq)
{
	struct bino_audit_target *target = aw->target;
	const struct audit_level *level = &aw->levels[depth];
	struct audit_example_draft draft;
	enum bino_error err;
	int k;

	for (k = depth - 1; k >= 0; k--) {
		const struct audit_level *up = &aw->levels[k];

		if (up->client_fs == level->client_fs && up->ino == level->ino)
			break;
	}
	if (k < 0)
		return BINO_OK;
	target->collisions[BINO_COLLISION_LOOP]++;
	err = audit_add_pair(target, aw->levels[k].key.subvolid,
			     level->key.subvolid, BINO_COLLISION_LOOP, 1);
	if (err)
		return err;
	memset(&draft, 0, sizeof(draft));
	draft.collision = BINO_COLLISION_LOOP;
	draft.seq = seq;
	draft.client_fs = level->client_fs;
	draft.path_a = path;
	draft.len_a = aw->levels[k].path_len;
	draft.key_a = aw->levels[k].key;
	draft.first_identity = CKEY_NONE;
	draft.path_b = path;
	draft.key_b = level->key;
	return audit_add_example(target, &draft);
}

enum bino_error bino__audit_count(struct audit_walk *aw, const char *path,
				  int depth, bool is_dir, uint64_t nlink)
{
	struct audit_level *level = &aw->levels[depth];
	uint64_t seq = aw->seq++;
	struct ckey_group *group;
	struct audit_meet meet;
	enum bino_error err = BINO_OK;
	bool links = !is_dir && nlink >= 2;
	uint32_t id, first;

	assert(aw->pass == 1);
	if (is_dir)
		err = audit_count_loop(aw, path, depth, seq);
	if (!err)
		err = bino__ckey_identity(aw->groups, level->client_fs,
					  level->key.dev, level->key.subvolid,
					  &id);
	if (!err)
		err = bino__ckey_table_add(aw->groups, id, level->ino, &first,
					   &group);
	if (err || first == CKEY_NONE)
		return err; /* the key's first entry: nothing collides yet */
	meet.id = id;
	meet.ino = level->ino;
	meet.path = path;
	meet.client_fs = level->client_fs;
	meet.seq = seq;
	if (!group && id != first && !links)
		return audit_count_collided(aw, first, &meet);
	if (!group)
		err = bino__ckey_table_group(aw->groups, level->client_fs,
					     level->ino, first, &group);
	if (!err)
		err = audit_group_add(aw, BINO_COLLISION_PLAIN, &group->plain,
				      &meet);
	if (!err && group->first_links == CKEY_FIRST_LINKS_UNKNOWN) {
		if (id == group->plain.first) {
			/* The same inode as the first entry: now it is known. */
			err = bino__audit_group_resolve(aw, group, links,
							level->ino,
							level->client_fs);
		} else if (links) {
			return audit_group_wait(aw, group, &meet);
		}
	}
	if (err || !links)
		return err;
	return audit_group_add(aw, BINO_COLLISION_HARDLINK, &group->link, &meet);
}
