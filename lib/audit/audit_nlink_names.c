/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nlink from the names the walk itself meets, for an audit that may not
 * search btrfs trees.  Such an audit needs nlink for every entry whose key
 * was met before, on a snapshot all of them; a stat costs about twice what
 * reading the entry's directory does, and reading the snapshot's
 * directories a second time to count their names (nlink_scan.c) cost the
 * unprivileged audit half of the walk's time on the bench's 1+1 shape.
 *
 * A non-directory's nlink is the number of its names, and btrfs keeps every
 * name of an inode in the inode's subvolume (a link across subvolumes is
 * EXDEV).  The walk meets every name of a subvolume between its root and
 * the end of its root's subtree (the subvolume's window), unless a mount
 * or an unreadable directory hides some.  So within a window:
 *
 *  - a name whose inode was met before in the window: nlink >= 2, known;
 *  - the first name of an inode: nlink is 1 unless another name follows.
 *    The audit takes it for 1 (the entry is deferred) unless an inode of
 *    that number had several names in a window before (the hint: a
 *    snapshot's hard links are mostly its source's), and stats it then.
 *
 * A guess is proved right when its window closes with every name met and
 * no second name of a deferred inode.  Should a deferred inode meet a
 * second name, or names be hidden once some entry was deferred, the guess
 * may be wrong: the walk stops and the first pass starts again without
 * guessing (audit.c), stat'ing as before.  Entries are counted in walk
 * order, so a guess must never be corrected later: an entry's class
 * depends on the entries before it (audit_count.c).  The cost of a wrong
 * guess is the walk so far; the hint keeps it rare on snapshots.
 *
 * A window closed with every name met leaves its identity's set of inodes
 * with several names read (CKEY_LINKS_READ), as a tree read would, for the
 * entries of that subvolume met again later (a mount of it).  Memory: per
 * open window, two compressed sets of dense inode numbers; per client
 * filesystem, the hint.
 */
#include "audit_state.h"

#include <assert.h>
#include <stdlib.h>

#include "array.h"
#include "btrfsconst.h"

/* Whether the entry of @level is in @w's client filesystem and subvolume. */
static bool names_level_in(const struct audit_level *level,
			   const struct audit_window *w)
{
	return level->client_fs == w->client_fs && level->key.dev == w->dev &&
	       level->key.subvolid == w->subvolid;
}

/* The open window the children of the directory at @depth are named in. */
static struct audit_window *names_window(struct audit_walk *aw, int depth)
{
	struct audit_window *w;

	if (aw->n_windows == 0)
		return NULL;
	w = &aw->windows[aw->n_windows - 1];
	return names_level_in(&aw->levels[depth], w) ? w : NULL;
}

static void names_close(struct audit_walk *aw, struct audit_window *w)
{
	struct ckey_identity *identity =
		bino__ckey_identity_get(aw->groups, w->identity);

	assert(identity->links == CKEY_LINKS_COUNTING);
	/* Incomplete only while nothing was deferred (else: restart). */
	identity->links = w->incomplete ? CKEY_LINKS_UNAVAILABLE :
					  CKEY_LINKS_READ;
	if (w->incomplete)
		bino__inoset_clear(
			bino__ckey_identity_links(aw->groups, w->identity));
	bino__inoset_clear(&w->seen);
	bino__inoset_clear(&w->deferred);
}

void bino__audit_names_leave(struct audit_walk *aw, int depth)
{
	while (aw->n_windows > 0 &&
	       aw->windows[aw->n_windows - 1].depth >= depth)
		names_close(aw, &aw->windows[--aw->n_windows]);
}

enum bino_error bino__audit_names_open(struct audit_walk *aw,
				       struct bino_entry *entry, int depth)
{
	const struct audit_level *level = &aw->levels[depth];
	struct ckey_identity *identity;
	struct audit_window *w;
	enum bino_error err;
	uint32_t id;

	if (!aw->count_names || !level->key.subvolid ||
	    level->ino != BTRFS_FIRST_FREE_OBJECTID ||
	    (depth > 0 && !(bino_entry_flags(entry) & BINO_ENTRY_SUBVOL_ROOT)))
		return BINO_OK;
	err = bino__ckey_identity(aw->groups, level->client_fs, level->key.dev,
				  level->key.subvolid, &id);
	if (err)
		return err;
	identity = bino__ckey_identity_get(aw->groups, id);
	if (identity->links != CKEY_LINKS_UNREAD)
		return BINO_OK; /* counted, or met before without its root */
	if (ARRAY_RESERVE(aw->windows, aw->cap_windows, aw->n_windows + 1))
		return BINO_ERROR_NO_MEMORY;
	identity->links = CKEY_LINKS_COUNTING;
	w = &aw->windows[aw->n_windows++];
	*w = (struct audit_window){
		.identity = id,
		.depth = depth,
		.client_fs = level->client_fs,
		.dev = level->key.dev,
		.subvolid = level->key.subvolid,
	};
	return BINO_OK;
}

/* Some names of @w are not met: no more guesses there. */
static void names_spoil(struct audit_walk *aw, struct audit_window *w)
{
	if (w->deferred.n_parts > 0)
		aw->restart = true; /* a deferred inode's other names may hide */
	w->incomplete = true;
}

void bino__audit_names_hidden(struct audit_walk *aw, int depth)
{
	struct audit_window *w;
	size_t i;

	/*
	 * An error at @depth may be about the directory entered there, which
	 * may be a window's root: that one is spoiled too (or, with the same
	 * cost, a window whose walk is over but not yet closed).
	 */
	for (i = aw->n_windows; i > 0 && aw->windows[i - 1].depth >= depth; i--)
		names_spoil(aw, &aw->windows[i - 1]);
	if (depth == 0)
		return;
	w = names_window(aw, depth - 1);
	if (w)
		names_spoil(aw, w);
}

/* The hint of client filesystem @client_fs. */
static struct inoset *names_hint(struct audit_walk *aw, size_t client_fs)
{
	size_t n = aw->cap_hint;

	if (client_fs >= n) {
		if (ARRAY_RESERVE(aw->hint, aw->cap_hint, client_fs + 1))
			return NULL;
		for (; n < aw->cap_hint; n++)
			aw->hint[n] = (struct inoset){ 0 };
	}
	return &aw->hint[client_fs];
}

enum bino_error bino__audit_names_count(struct audit_walk *aw, int depth,
					enum audit_names *ret)
{
	const struct audit_level *level = &aw->levels[depth];
	struct audit_window *w;
	struct inoset *hint;
	int added;

	*ret = AUDIT_NAMES_NONE;
	assert(depth > 0);
	w = names_window(aw, depth - 1);
	if (!w || w->incomplete)
		return BINO_OK;
	if (!names_level_in(level, w)) {
		/* A file mounted on one of its names. */
		bino__audit_names_hidden(aw, depth);
		return BINO_OK;
	}
	added = bino__inoset_add(&w->seen, level->ino);
	if (added > 0) {
		*ret = AUDIT_NAMES_FIRST;
		return BINO_OK;
	}
	hint = names_hint(aw, level->client_fs);
	if (added < 0 || !hint ||
	    bino__inoset_add(bino__ckey_identity_links(aw->groups, w->identity),
			     level->ino) < 0 ||
	    bino__inoset_add(hint, level->ino) < 0)
		return BINO_ERROR_NO_MEMORY;
	if (bino__inoset_contains(&w->deferred, level->ino))
		aw->restart = true; /* its first name was taken for the only one */
	*ret = AUDIT_NAMES_AGAIN;
	return BINO_OK;
}

enum bino_error bino__audit_names_nlink(struct audit_walk *aw, int depth,
					enum audit_names names, bool *known,
					uint64_t *nlink)
{
	const struct audit_level *level = &aw->levels[depth];
	const struct inoset *hint;
	struct audit_window *w;

	*known = false;
	if (names == AUDIT_NAMES_AGAIN) {
		*known = true;
		*nlink = 2;
		return BINO_OK;
	}
	if (names != AUDIT_NAMES_FIRST)
		return BINO_OK;
	w = names_window(aw, depth - 1);
	assert(w);
	hint = level->client_fs < aw->cap_hint ? &aw->hint[level->client_fs] :
						 NULL;
	if (hint && bino__inoset_contains(hint, level->ino))
		return BINO_OK; /* likely several names: stat */
	if (bino__inoset_add(&w->deferred, level->ino) < 0)
		return BINO_ERROR_NO_MEMORY;
	*known = true;
	*nlink = 1;
	return BINO_OK;
}

enum bino_error bino__audit_names_stated(struct audit_walk *aw, int depth,
					 uint64_t nlink)
{
	struct inoset *hint;

	if (!aw->count_names || nlink < 2)
		return BINO_OK;
	hint = names_hint(aw, aw->levels[depth].client_fs);
	if (!hint || bino__inoset_add(hint, aw->levels[depth].ino) < 0)
		return BINO_ERROR_NO_MEMORY;
	return BINO_OK;
}

void bino__audit_names_clear(struct audit_walk *aw)
{
	size_t i;

	while (aw->n_windows > 0)
		names_close(aw, &aw->windows[--aw->n_windows]);
	for (i = 0; i < aw->cap_hint; i++)
		bino__inoset_clear(&aw->hint[i]);
	free(aw->hint);
	aw->hint = NULL;
	aw->cap_hint = 0;
	free(aw->windows);
	aw->windows = NULL;
	aw->cap_windows = 0;
}
