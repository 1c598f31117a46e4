/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit's second pass: what the first could not know.  Examples need
 * the path of the first entry of the key (of the identity that entry has),
 * which was not kept.  A second, targeted walk finds those at most
 * 2 * BINO_AUDIT_EXAMPLES_MAX paths and stats the first entries of the
 * groups still unknown with pending entries; it stops as soon as nothing
 * is missing, which is early in the walk on snapshot-heavy trees (first
 * entries come before their collisions).  Examples are kept sorted by walk
 * order (the entry's sequence number), so the replayed hardlink entries
 * take their place.  Should the tree change between the walks, an example
 * whose first path is not found again is dropped, and an unknown first
 * entry counts as having one link.
 *
 * Components: bino__audit_find_start() (what is missing),
 * bino__audit_find_entry() (one entry of the walk), audit_find_paths() (the
 * examples it completes), bino__audit_find_finish() (what was not found).
 */
#include "audit_state.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* The group of the @i-th key that waits for its first_links, if still there. */
static struct ckey_group *audit_waiting_group(const struct audit_walk *aw,
					      size_t i)
{
	return bino__ckey_table_find(aw->groups, aw->waiting[i].client_fs,
				     aw->waiting[i].ino);
}

/* Paths of examples still missing and first entries still to stat. */
static size_t audit_find_missing(const struct audit_walk *aw)
{
	const struct bino_audit_target *target = aw->target;
	size_t missing = 0, i;

	for (i = 0; i < target->n_examples[BINO_COLLISION_PLAIN]; i++)
		missing += !target->examples[BINO_COLLISION_PLAIN][i].path[0];
	for (i = 0; i < target->n_examples[BINO_COLLISION_HARDLINK]; i++)
		missing += !target->examples[BINO_COLLISION_HARDLINK][i].path[0];
	for (i = 0; i < aw->n_waiting; i++) {
		const struct ckey_group *group = audit_waiting_group(aw, i);

		missing += group && group->need_first;
	}
	return missing;
}

/* Groups whose first entry the second walk must stat; what is missing. */
void bino__audit_find_start(struct audit_walk *aw)
{
	size_t i;

	for (i = 0; i < aw->n_waiting; i++) {
		struct ckey_group *group = audit_waiting_group(aw, i);

		if (group && group->first_links == CKEY_FIRST_LINKS_UNKNOWN &&
		    group->pending != CKEY_NONE)
			group->need_first = true;
	}
	aw->missing = audit_find_missing(aw);
}

/*
 * After the second walk: what it did not find (the tree changed) counts
 * as one link, and examples without a first path are dropped.
 */
enum bino_error bino__audit_find_finish(struct audit_walk *aw)
{
	struct bino_audit_target *target = aw->target;
	enum bino_error err = BINO_OK;
	size_t i, j, c;

	for (i = 0; i < aw->n_waiting; i++) {
		struct ckey_group *group = audit_waiting_group(aw, i);

		if (!err && group && group->need_first) {
			group->need_first = false;
			err = bino__audit_group_resolve(aw, group, false,
							aw->waiting[i].ino,
							aw->waiting[i].client_fs);
		}
	}
	for (c = BINO_COLLISION_HARDLINK; c <= BINO_COLLISION_PLAIN; c++) {
		struct bino_audit_example *examples = target->examples[c];

		for (i = j = 0; i < target->n_examples[c]; i++) {
			if (examples[i].path[0]) {
				examples[j++] = examples[i];
				continue;
			}
			free(examples[i].path[1]);
		}
		target->n_examples[c] = j;
	}
	return err;
}

/* Whether an example's first path is this entry's (@id, @ino, @client_fs). */
static bool audit_find_wanted(const struct audit_walk *aw, uint32_t id,
			      uint64_t ino, size_t client_fs)
{
	const struct bino_audit_target *target = aw->target;
	size_t i, c;

	for (c = BINO_COLLISION_HARDLINK; c <= BINO_COLLISION_PLAIN; c++) {
		for (i = 0; i < target->n_examples[c]; i++) {
			const struct bino_audit_example *example =
				&target->examples[c][i];

			if (!example->path[0] && example->client_fs == client_fs &&
			    example->key[0].ino == ino &&
			    example->first_identity == id)
				return true;
		}
	}
	return false;
}

/* Fill the examples whose first entry is this one (@id, @ino, @client_fs). */
static enum bino_error audit_find_paths(struct audit_walk *aw, uint32_t id,
					uint64_t ino, size_t client_fs,
					const char *path)
{
	struct bino_audit_target *target = aw->target;
	size_t i, c;

	for (c = BINO_COLLISION_HARDLINK; c <= BINO_COLLISION_PLAIN; c++) {
		for (i = 0; i < target->n_examples[c]; i++) {
			struct bino_audit_example *example =
				&target->examples[c][i];

			if (example->path[0] || example->client_fs != client_fs ||
			    example->key[0].ino != ino ||
			    example->first_identity != id)
				continue;
			example->path[0] = strdup(path);
			if (!example->path[0])
				return BINO_ERROR_NO_MEMORY;
		}
	}
	return BINO_OK;
}

/*
 * One entry of the second walk, with its level set as the first walk did.
 * An entry that may be wanted is stat'ed as the first walk would have, and
 * skipped as it was if that fails (a directory that cannot be searched).
 */
enum bino_error bino__audit_find_entry(struct audit_walk *aw,
				       struct bino_entry *entry, int depth,
				       bool is_dir)
{
	struct audit_level *level = &aw->levels[depth];
	struct ckey_group *group = bino__ckey_table_find(
		aw->groups, level->client_fs, level->ino);
	enum bino_error err;
	struct bino_stat st;
	bool links = false;
	uint32_t id;

	assert(aw->pass == 2);
	if (!group && !bino__ckey_table_collided(aw->groups, level->client_fs,
						 level->ino))
		return BINO_OK; /* never collided: never an example's */
	err = bino__ckey_identity(aw->groups, level->client_fs, level->key.dev,
				  level->key.subvolid, &id);
	if (err)
		return err;
	if (!(group && group->need_first) &&
	    !audit_find_wanted(aw, id, level->ino, level->client_fs))
		return BINO_OK;
	if (!is_dir) {
		if (bino_entry_stat(entry, &st) != BINO_OK)
			return BINO_OK;
		links = st.nlink >= 2;
	}
	if (group && group->need_first) {
		/* The key's first entry, met again. */
		group->need_first = false;
		err = bino__audit_group_resolve(aw, group, links && id == group->plain.first,
					  level->ino, level->client_fs);
	}
	if (!err)
		err = audit_find_paths(aw, id, level->ino, level->client_fs,
				       bino_entry_path(entry));
	if (!err)
		aw->missing = audit_find_missing(aw);
	return err;
}
