/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit: walk each exported path by true identity and count the entries
 * whose NFS client key (client filesystem, inode) is not unique.  The
 * state shared by its files is in audit_state.h; this file holds the paths
 * to audit and the walk.  Components, top to bottom:
 *
 *  - audit_add_target(): the list of paths to audit, each with the export
 *    options that apply (nfsview.c resolves the export table).
 *  - audit_walk_*(): one walk per path, with a stack of levels (one per
 *    depth: client filesystem, export flags, client key, path length) so
 *    that ancestors are known without post-order visits; audit_levels.c
 *    sets each level and crosses the server mounts on the way, for both
 *    passes.  audit_walk_entry() only dispatches: each entry is counted by
 *    the first pass (audit_count_entry(), then the classification,
 *    bino__audit_count() in audit_count.c) and, when the first left
 *    examples or first entries unknown, looked for by a second
 *    (audit_find.c); devices and subvolumes are noted on the way
 *    (audit_subvols.c).
 *
 * Stat calls follow the keys that collide, not the tree:
 *
 *  - nlink matters only for the hardlink class, so a non-directory is
 *    stat'ed only when its key was met before (it may collide), plus one
 *    probe per directory, so that entries stat cannot see (a directory
 *    readable but not searchable) are still counted unreadable; none
 *    where the directory is surely searchable (audit_dir_searchable()).
 *  - On btrfs, with CAP_SYS_ADMIN, even that stat is mostly avoided: which
 *    inodes of a subvolume have several names is read from its tree in one
 *    pass (nlink_tree.c), by a helper thread that reads the subvolumes
 *    below the audited path in the walk's order, ahead of it, when that
 *    path is on btrfs.  Until the helper has read a subvolume its entries
 *    are stat'ed; once LINKS_AFTER_STATS of them needed nlink the walk
 *    waits for the read, sharing it (audit_links_known()).  Below a path
 *    on another filesystem, a subvolume is read by the walk's thread
 *    after as many stats.  The set read becomes the identity's own
 *    (ckeys.c), so nothing points into the helper or into the growing
 *    table of identities.
 *  - Without the privilege, nlink comes from the names the walk itself
 *    meets in each subvolume it enters at the root (audit_nlink_names.c): a
 *    first name is taken for the only one, unless a subvolume walked before
 *    had several for that inode number, and the end of the subvolume proves
 *    it.  Where a guess may be wrong (a second name follows, or a mount or
 *    an unreadable directory hides names), the first pass starts again
 *    without guessing (audit_walk_restart()): then the helper counts the
 *    names in the directories of the snapshots instead (nlink_scan.c), as the
 *    entries of a snapshot of a subvolume walked before all collide, and of
 *    every subvolume after one whose keys collided that often (copies).
 *
 * The library prints nothing: the results are read through accessors
 * (audit_results.c).
 */
#include "audit_state.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "creds.h"
#include "mounts.h"

#define AUDIT_ALL_FLAGS (BINO_AUDIT_NFSV4)
#define PROGRESS_EVERY 4096
/*
 * Entries of a btrfs subvolume stat'ed for nlink before its inodes with
 * several names are read from its tree at once instead.
 */
#define LINKS_AFTER_STATS 64

/* ---- the paths to audit ------------------------------------------------ */

/* The server as the audit's clients see it, once its mounts are known. */
static struct nfsview audit_nfsview(const struct bino_audit *audit)
{
	struct nfsview view = {
		.exports = audit->resolved,
		.mounts = audit->server,
		.audit_flags = audit->flags,
	};

	return view;
}

/* Release and zero what a walk of @target found. */
static void audit_target_clear(struct bino_audit_target *target)
{
	struct bino_audit_device *device, *tmp;
	size_t i, j;

	for (i = 0; i < BINO_COLLISION_NR; i++) {
		for (j = 0; j < target->n_examples[i]; j++) {
			free(target->examples[i][j].path[0]);
			free(target->examples[i][j].path[1]);
		}
		target->n_examples[i] = 0;
		target->collisions[i] = 0;
	}
	free(target->pairs);
	target->pairs = NULL;
	target->n_pairs = target->cap_pairs = target->last_pair = 0;
	free(target->submounts);
	target->submounts = NULL;
	target->n_submounts = target->cap_submounts = 0;
	for (i = 0; i < target->n_subvols; i++) {
		free(target->subvols[i].path);
		free(target->subvols[i].fs_path);
		free(target->subvols[i].mounts);
	}
	free(target->subvols);
	target->subvols = NULL;
	target->n_subvols = target->cap_subvols = 0;
	HASH_ITER(hh, target->device_index, device, tmp) {
		HASH_DEL(target->device_index, device);
		free(device->path);
		free(device);
	}
	free(target->devices);
	target->devices = NULL;
	target->n_devices = target->cap_devices = 0;
	target->n_client_fs = 0;
	target->entries = target->unreadable = 0;
	target->error = BINO_OK;
	target->error_errno = 0;
}

static void audit_target_free(struct bino_audit_target *target)
{
	if (!target)
		return;
	audit_target_clear(target);
	free(target->client_devs);
	free(target->path);
	free(target);
}

/*
 * Add @path, audited with export flags @flags from @source (NULL: not
 * exported), which names the path or (@covered) a directory above it.
 * @resolve_errno: 0 when @path is resolved, else why realpath(3) failed
 * (the target's error).
 */
static enum bino_error audit_add_target(struct bino_audit *audit,
					const char *path, int resolve_errno,
					const struct bino_export *source,
					int flags, bool covered)
{
	struct bino_audit_target *target;
	size_t i;

	for (i = 0; i < audit->count; i++) {
		if (strcmp(audit->items[i]->path, path) == 0 &&
		    (audit->items[i]->flags & BINO_EXPORT_CROSSMNT) ==
			    (flags & BINO_EXPORT_CROSSMNT))
			return BINO_OK;
	}
	if (ARRAY_RESERVE(audit->items, audit->cap, audit->count + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	target = calloc(1, sizeof(*target));
	if (!target)
		return BINO_ERROR_NO_MEMORY;
	target->audit = audit;
	target->path = strdup(path);
	if (!target->path) {
		free(target);
		return BINO_ERROR_NO_MEMORY;
	}
	target->resolved = resolve_errno == 0;
	target->source = source;
	target->covered = covered;
	target->flags = flags;
	if (resolve_errno) {
		target->error = BINO_ERROR_STAT_FAILED;
		target->error_errno = resolve_errno;
	}
	audit->items[audit->count++] = target;
	return BINO_OK;
}

/* ---- the walk ---------------------------------------------------------- */

static void audit_walk_progress(struct audit_walk *aw, bool last)
{
	if (!aw->audit->progress)
		return;
	if (!last && aw->target->entries < aw->next_progress)
		return;
	aw->next_progress = aw->target->entries + PROGRESS_EVERY;
	aw->audit->progress(aw->target, aw->target->entries,
			    aw->audit->progress_data);
}

/*
 * Whether a non-directory entry must be stat'ed: its key was met before
 * (it may collide, and then nlink tells its class), or its directory has
 * not yet shown that its children can be stat'ed.
 */
static bool audit_walk_needs_stat(const struct audit_walk *aw, int depth)
{
	const struct audit_level *level = &aw->levels[depth];

	if (depth == 0 || level[-1].probe != PROBE_OK)
		return true;
	return bino__ckey_table_seen(aw->groups, level->client_fs, level->ino);
}

/*
 * Read now which inodes of identity @id (of subvolume @subvolid) have
 * several names, into its own set, from the directory @dir, which must be
 * in that subvolume.
 */
static void audit_links_read(struct audit_walk *aw, uint32_t id,
			     uint64_t subvolid, const char *dir)
{
	struct ckey_identity *identity = bino__ckey_identity_get(aw->groups, id);
	struct inoset *links = bino__ckey_identity_links(aw->groups, id);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
				   O_NONBLOCK);
	int errnum;

	identity->links = CKEY_LINKS_UNAVAILABLE;
	if (fd < 0)
		return;
	if (bino__btrfs_multilinked_set(fd, subvolid, links, &errnum) == BINO_OK)
		identity->links = CKEY_LINKS_READ;
	else if (errnum == EPERM || errnum == EACCES)
		aw->audit->no_tree_search = true;
	close(fd);
}

/*
 * Whether a non-directory has more than one link (*@nlink 2, else 1), known
 * without stat from its subvolume's tree: read ahead by the helper thread,
 * or here once enough of its entries needed it.  Only for entries in their
 * directory's subvolume.
 */
static bool audit_links_known(struct audit_walk *aw, struct bino_entry *entry,
			      int depth, uint64_t *nlink)
{
	const struct audit_level *level = &aw->levels[depth];
	const struct audit_level *parent = level - 1;
	struct ckey_identity *identity;
	uint32_t id;
	char *dir;

	if ((aw->audit->no_tree_search && !aw->ahead) ||
	    aw->target->client_view || !level->key.subvolid ||
	    parent->key.dev != level->key.dev ||
	    parent->key.subvolid != level->key.subvolid ||
	    parent->client_fs != level->client_fs)
		return false;
	if (bino__ckey_identity(aw->groups, level->client_fs, level->key.dev,
				level->key.subvolid, &id))
		return false;
	/* Valid until the table's destroy, however many identities follow. */
	identity = bino__ckey_identity_get(aw->groups, id);
	/*
	 * Stat while the helper has not read it (few entries of a subvolume
	 * may need nlink); once many did, wait for it.
	 */
	if (identity->links == CKEY_LINKS_UNREAD && aw->ahead &&
	    !identity->ahead_asked) {
		switch (bino__links_ahead_take(
			aw->ahead, level->key.dev, level->key.subvolid,
			identity->stats + 1 >= LINKS_AFTER_STATS,
			bino__ckey_identity_links(aw->groups, id))) {
		case 1:
			identity->links = CKEY_LINKS_READ;
			break;
		case 2:
			identity->stats++;
			return false;
		default: /* read here, once it is worth it */
			identity->ahead_asked = true;
		}
	}
	if (identity->links == CKEY_LINKS_UNREAD &&
	    !aw->audit->no_tree_search &&
	    ++identity->stats >= LINKS_AFTER_STATS) {
		dir = strndup(bino_entry_path(entry), parent->path_len);
		if (!dir)
			return false;
		audit_links_read(aw, id, level->key.subvolid, dir);
		free(dir);
	}
	if (identity->links != CKEY_LINKS_READ)
		return false;
	*nlink = bino__inoset_contains(bino__ckey_identity_links(aw->groups, id),
				       level->ino) ? 2 : 1;
	return true;
}

/*
 * Whether nlink of a non-directory whose directory showed its children can
 * be stat'ed is known without stat (*@known, *@nlink): from the names the
 * walk met (audit_nlink_names.c), or its subvolume's tree.
 */
static enum bino_error audit_nlink_known(struct audit_walk *aw,
					 struct bino_entry *entry, int depth,
					 enum audit_names names, bool *known,
					 uint64_t *nlink)
{
	if (names != AUDIT_NAMES_NONE)
		return bino__audit_names_nlink(aw, depth, names, known, nlink);
	*known = audit_links_known(aw, entry, depth, nlink);
	return BINO_OK;
}

/* The client view: what this client shows of the subvolume just noted. */
static void audit_note_client_subvol(struct audit_walk *aw, size_t n_before,
				struct bino_entry *entry, int depth)
{
	struct bino_audit_target *target = aw->target;
	struct bino_audit_subvol *subvol;

	if (!target->client_view || target->n_subvols == n_before)
		return;
	subvol = &target->subvols[target->n_subvols - 1];
	subvol->client_dev = bino_entry_st_dev(entry);
	subvol->own_filesystem =
		depth == 0 ||
		aw->levels[depth - 1].client_fs != aw->levels[depth].client_fs;
}

/* What the first pass learnt of a non-directory's nlink. */
enum audit_nlink {
	AUDIT_NLINK_KNOWN,
	AUDIT_NLINK_UNREADABLE, /* stat failed: the entry is counted unreadable */
	AUDIT_NLINK_RESTART, /* a guess proved wrong: count again (aw->restart) */
	AUDIT_NLINK_NO_MEMORY, /* the only failure of its sources */
};

/*
 * nlink of the non-directory at @depth of the first pass, in *@nlink when
 * AUDIT_NLINK_KNOWN: 1 unless the key was met before (only then can it
 * collide, and the class needs nlink), else from the names the walk met,
 * the subvolume's tree, or stat.
 */
static enum audit_nlink audit_entry_nlink(struct audit_walk *aw,
					  struct bino_entry *entry, int depth,
					  uint64_t *nlink)
{
	struct audit_level *level = &aw->levels[depth];
	enum audit_names names = AUDIT_NAMES_NONE;
	struct bino_stat st;
	bool known = false;

	*nlink = 1;
	if (depth > 0 && bino__audit_names_count(aw, depth, &names) != BINO_OK)
		return AUDIT_NLINK_NO_MEMORY;
	if (aw->restart)
		return AUDIT_NLINK_RESTART;
	if (!audit_walk_needs_stat(aw, depth))
		return AUDIT_NLINK_KNOWN;
	if (depth > 0 && level[-1].probe == PROBE_OK &&
	    audit_nlink_known(aw, entry, depth, names, &known, nlink) != BINO_OK)
		return AUDIT_NLINK_NO_MEMORY;
	if (known)
		return AUDIT_NLINK_KNOWN;
	if (bino_entry_stat(entry, &st) != BINO_OK) {
		/* Refused, or vanished since read (then not part of the tree). */
		if (depth > 0 && errno != ENOENT && errno != ESTALE)
			level[-1].probe = PROBE_FAILED;
		return AUDIT_NLINK_UNREADABLE;
	}
	if (depth > 0 && level[-1].probe == PROBE_NONE)
		level[-1].probe = PROBE_OK;
	*nlink = st.nlink;
	if (bino__audit_names_stated(aw, depth, st.nlink) != BINO_OK)
		return AUDIT_NLINK_NO_MEMORY;
	return AUDIT_NLINK_KNOWN;
}

/*
 * At the audited directory, on btrfs: start the helper thread that reads
 * ahead which inodes have several names (best effort: without it, the
 * entries that need nlink are stat'ed).
 */
static void audit_links_ahead_start(struct audit_walk *aw,
				    struct bino_entry *entry)
{
	const struct audit_level *level = &aw->levels[0];

	if (!level->key.subvolid || aw->ahead || aw->target->client_view ||
	    aw->count_names)
		return;
	if (bino__links_ahead_create(bino_entry_path(entry), level->key.dev,
				     LINKS_AFTER_STATS, &aw->ahead) != BINO_OK)
		aw->ahead = NULL;
}

/* Note the entry's device, and its subvolume at a root or the audited path. */
static enum bino_error audit_note_entry(struct audit_walk *aw,
					struct bino_entry *entry, int depth)
{
	size_t n_before = aw->target->n_subvols;
	enum bino_error err = bino__audit_note_device(aw, entry);

	if (err || (depth > 0 &&
		    !(bino_entry_flags(entry) & BINO_ENTRY_SUBVOL_ROOT)))
		return err;
	err = bino__audit_note_subvol(aw, entry, aw->levels[depth].client_fs,
				      depth == 0);
	if (!err)
		audit_note_client_subvol(aw, n_before, entry, depth);
	return err;
}

/* The first pass: count an entry the walk goes into, its level set. */
static enum bino_error audit_count_entry(struct audit_walk *aw,
					 struct bino_entry *entry, int depth,
					 bool is_dir)
{
	struct bino_audit_target *target = aw->target;
	uint64_t nlink = 1;
	enum bino_error err = BINO_OK;

	if (is_dir)
		err = bino__audit_names_open(aw, entry, depth);
	if (err)
		return err;
	if (is_dir && depth == 0)
		audit_links_ahead_start(aw, entry);
	target->entries++;
	audit_walk_progress(aw, false);
	switch (is_dir ? AUDIT_NLINK_KNOWN :
			 audit_entry_nlink(aw, entry, depth, &nlink)) {
	case AUDIT_NLINK_KNOWN:
		break;
	case AUDIT_NLINK_UNREADABLE:
		target->entries--;
		target->unreadable++;
		return BINO_OK;
	case AUDIT_NLINK_RESTART:
		return BINO_ERROR_STOP_ITERATION;
	case AUDIT_NLINK_NO_MEMORY:
		return BINO_ERROR_NO_MEMORY;
	}
	err = audit_note_entry(aw, entry, depth);
	if (err)
		return err;
	return bino__audit_count(aw, bino_entry_path(entry), depth, is_dir,
				 nlink);
}

/* The first pass: an entry the walk could not read. */
static enum bino_error audit_count_error(struct audit_walk *aw,
					 struct bino_entry *entry, int depth)
{
	struct bino_audit_target *target = aw->target;

	/* Names below it are not met: no guessing nlink there. */
	bino__audit_names_hidden(aw, depth);
	bino__audit_names_leave(aw, depth);
	if (aw->restart)
		return BINO_ERROR_STOP_ITERATION;
	if (depth == 0 && target->entries == 0) {
		target->error = bino_entry_error(entry);
		target->error_errno = bino_entry_errno(entry);
	} else if (!(target->client_view && bino_entry_errno(entry) == ESTALE)) {
		/*
		 * What the server cannot serve (a snapshot's empty
		 * placeholder) is nothing this client can read either.
		 */
		target->unreadable++;
	}
	return BINO_OK;
}

/*
 * One entry of the walk, dispatched to the pass; a fatal error ends the
 * walk.  A covered directory (a mount point the clients do not cross) is
 * counted as a directory of one link, and nothing below it.
 */
static enum bino_error audit_walk_entry(struct audit_walk *aw,
					struct bino_entry *entry)
{
	int depth = bino_entry_depth(entry);
	bool is_dir = bino_entry_type(entry) == BINO_TYPE_DIR;
	enum audit_enter how;
	enum bino_error err;

	if (bino_entry_event(entry) == BINO_EVENT_ERROR)
		return aw->pass == 1 ? audit_count_error(aw, entry, depth) :
				       BINO_OK;
	if (bino_entry_visit(entry) != BINO_VISIT_PRE)
		return BINO_OK;
	if (aw->pass == 1)
		bino__audit_names_leave(aw, depth);
	err = bino__audit_level_enter(aw, entry, is_dir, &how);
	if (err || how == AUDIT_ENTER_SKIP)
		return err;
	if (aw->pass == 2)
		return bino__audit_find_entry(aw, entry, depth, is_dir);
	if (how == AUDIT_ENTER_WALK)
		return audit_count_entry(aw, entry, depth, is_dir);
	aw->target->entries++;
	return bino__audit_count(aw, bino_entry_path(entry), depth, true, 1);
}

/* Walk the path once: the first pass counts, the second finds. */
static enum bino_error audit_walk_pass(struct audit_walk *aw, int pass)
{
	const char *paths[] = { aw->target->path };
	struct bino_entry *entry;
	enum bino_error err;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	aw->pass = pass;
	/* Without the tree, colliding entries are stat'ed for nlink: ahead. */
	err = bino_walk_create(paths, 1,
			       aw->audit->no_tree_search ||
					       aw->target->client_view ||
					       !bino__btrfs_can_search_trees() ?
				       BINO_WALK_STAT_AHEAD :
				       0,
			       &aw->walk);
	if (err)
		return err;
	/* Read directories ahead on every core; same entries, same order. */
	if (cpus > 1)
		err = bino_walk_set_threads(aw->walk, cpus > 64 ? 64 : (int)cpus);
	while (!err && (pass == 1 || aw->missing) &&
	       (err = bino_walk_next(aw->walk, &entry)) == BINO_OK) {
		err = audit_walk_entry(aw, entry);
		if (err)
			break;
	}
	if (err == BINO_ERROR_STOP_ITERATION)
		err = BINO_OK;
	bino_walk_destroy(aw->walk);
	aw->walk = NULL;
	if (pass == 1)
		bino__audit_names_clear(aw); /* closes the windows still open */
	return err;
}

/*
 * Forget what the first pass counted, for it to start again without
 * guessing nlink (audit_nlink_names.c proved a guess may be wrong).
 */
static enum bino_error audit_walk_restart(struct audit_walk *aw)
{
	size_t i;

	audit_target_clear(aw->target);
	for (i = 0; i < aw->n_events; i++)
		free(aw->events[i].path);
	aw->n_events = 0;
	aw->n_waiting = 0;
	aw->seq = 0;
	aw->count_names = false;
	aw->restart = false;
	bino__ckey_table_destroy(aw->groups);
	return bino__ckey_table_create(&aw->groups);
}

static enum bino_error audit_walk_target(struct bino_audit *audit,
					 struct bino_audit_target *target)
{
	struct audit_walk aw;
	enum bino_error err;
	size_t i, n_client_fs;

	memset(&aw, 0, sizeof(aw));
	aw.audit = audit;
	aw.target = target;
	aw.view = audit_nfsview(audit);
	aw.search_by_right = bino__in_initial_userns() &&
			     (bino__capable(CAP_DAC_READ_SEARCH) ||
			      bino__capable(CAP_DAC_OVERRIDE));
	aw.euid = geteuid(); /* the file system uid, unless set apart */
	/* Unprivileged, nlink comes from the walk's names where it can. */
	aw.count_names = !target->client_view &&
			 (audit->no_tree_search || !bino__btrfs_can_search_trees());
	err = bino__ckey_table_create(&aw.groups);
	if (err)
		return err;
	err = audit_walk_pass(&aw, 1);
	if (!err && aw.restart) {
		err = audit_walk_restart(&aw);
		if (!err)
			err = audit_walk_pass(&aw, 1);
	}
	bino__links_ahead_destroy(aw.ahead);
	aw.ahead = NULL;
	audit_walk_progress(&aw, true);
	if (err || target->error)
		goto out_groups;
	bino__audit_find_start(&aw);
	n_client_fs = target->n_client_fs;
	if (aw.missing)
		err = audit_walk_pass(&aw, 2);
	target->n_client_fs = n_client_fs;
	if (!err)
		err = bino__audit_find_finish(&aw);
	if (!err)
		err = bino__audit_finish_subvols(audit, target);
out_groups:
	for (i = 0; i < aw.n_events; i++)
		free(aw.events[i].path);
	free(aw.events);
	free(aw.waiting);
	bino__ckey_table_destroy(aw.groups);
	free(aw.levels);
	return err;
}

/* ---- public API -------------------------------------------------------- */

BINO_PUBLIC enum bino_error bino_audit_create(const struct bino_exports *exports,
					      const struct bino_mounts *server_mounts,
					      int flags, struct bino_audit **ret)
{
	struct bino_audit *audit;
	enum bino_error err;

	if (!ret || (flags & ~AUDIT_ALL_FLAGS))
		return BINO_ERROR_INVALID_ARGUMENT;
	audit = calloc(1, sizeof(*audit));
	if (!audit)
		return BINO_ERROR_NO_MEMORY;
	audit->exports = exports;
	audit->server = server_mounts;
	audit->flags = flags;
	err = bino__nfsview_exports_create(exports, &audit->resolved);
	if (err) {
		free(audit);
		return err;
	}
	*ret = audit;
	return BINO_OK;
}

BINO_PUBLIC void bino_audit_destroy(struct bino_audit *audit)
{
	size_t i;

	if (!audit)
		return;
	for (i = 0; i < audit->count; i++)
		audit_target_free(audit->items[i]);
	free(audit->items);
	bino__nfsview_exports_destroy(audit->resolved);
	bino_mounts_destroy(audit->own_mounts);
	free(audit);
}

static enum bino_error audit_server_mounts(struct bino_audit *audit);

/*
 * Add @resolved, exported by none of the table's lines, as the clients of
 * the nearest export above it see it: once per crossmnt they end up with,
 * unless a hidden server mount on the way shows them another directory.
 */
static enum bino_error audit_add_covered(struct bino_audit *audit,
					 const char *resolved, bool *added)
{
	const struct bino_export *export;
	struct nfsview view;
	enum bino_error err;
	size_t next = 0;
	int flags;

	if (bino__nfsview_exports_covering(audit->resolved, resolved) == SIZE_MAX)
		return BINO_OK;
	/* Which server mounts lie on the way decides what its clients see. */
	err = audit->server ? BINO_OK : audit_server_mounts(audit);
	if (err)
		return err;
	view = audit_nfsview(audit);
	while ((export = bino__nfsview_covering_next(&view, resolved, &next,
						     &flags))) {
		err = audit_add_target(audit, resolved, 0, export, flags, true);
		if (err)
			return err;
		*added = true;
	}
	return BINO_OK;
}

BINO_PUBLIC enum bino_error bino_audit_add_path(struct bino_audit *audit,
						const char *path)
{
	char *resolved;
	enum bino_error err = BINO_OK;
	bool added = false;
	size_t i, j, n;
	int resolve_errno = 0;
	const char *key;

	if (!audit || !path || !*path || audit->ran)
		return BINO_ERROR_INVALID_ARGUMENT;
	resolved = realpath(path, NULL);
	if (!resolved) {
		if (errno == ENOMEM)
			return BINO_ERROR_NO_MEMORY;
		/* Absent here, but maybe exported (as written) all the same. */
		resolve_errno = errno;
	}
	key = resolved ? resolved : path;
	/* Once per distinct crossmnt among the clients of the path. */
	n = bino__nfsview_exports_count(audit->resolved);
	for (i = 0; i < n && !err; i++) {
		const struct bino_export *export =
			bino__nfsview_exports_get(audit->resolved, i);
		bool seen = false;

		if (strcmp(bino__nfsview_exports_path(audit->resolved, i),
			   key) != 0)
			continue;
		for (j = 0; j < i; j++) {
			const struct bino_export *earlier =
				bino__nfsview_exports_get(audit->resolved, j);

			if (strcmp(bino__nfsview_exports_path(audit->resolved, j),
				   key) == 0 &&
			    ((bino_export_flags(earlier) ^
			      bino_export_flags(export)) &
			     BINO_EXPORT_CROSSMNT) == 0)
				seen = true;
		}
		if (!seen)
			err = audit_add_target(audit, key, resolve_errno,
					       export, bino_export_flags(export),
					       false);
		added = true;
	}
	if (!added && !err && resolved)
		err = audit_add_covered(audit, resolved, &added);
	if (!added && !err)
		err = audit_add_target(audit, key, resolve_errno, NULL,
				       BINO_EXPORT_RO, false);
	free(resolved);
	return err;
}

BINO_PUBLIC enum bino_error bino_audit_add_exports(struct bino_audit *audit)
{
	size_t i, n;
	enum bino_error err;

	if (!audit || audit->ran)
		return BINO_ERROR_INVALID_ARGUMENT;
	n = bino__nfsview_exports_count(audit->resolved);
	for (i = 0; i < n; i++) {
		err = bino_audit_add_path(
			audit, bino_export_path(bino__nfsview_exports_get(
				       audit->resolved, i)));
		if (err)
			return err;
	}
	return BINO_OK;
}

static enum bino_error audit_server_mounts(struct bino_audit *audit)
{
	enum bino_error err;

	if (!audit->own_mounts) {
		err = bino_mounts_create(NULL, &audit->own_mounts);
		if (err)
			return err;
	}
	if (!audit->server)
		audit->server = audit->own_mounts;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error bino_audit_add_btrfs_mounts(struct bino_audit *audit)
{
	enum bino_error err;
	size_t i, n;

	if (!audit || audit->ran)
		return BINO_ERROR_INVALID_ARGUMENT;
	err = audit_server_mounts(audit);
	if (err)
		return err;
	n = bino_mounts_count(audit->server);
	for (i = 0; i < n; i++) {
		const struct bino_mount *mount = bino_mounts_get(audit->server, i);

		/* Once per filesystem: at its first mount (a device is one fs). */
		if (strcmp(bino_mount_fstype(mount), "btrfs") != 0 ||
		    bino_mounts_find_dev(audit->server, bino_mount_dev(mount)) !=
			    mount)
			continue;
		err = bino_audit_add_path(audit, bino_mount_target(mount));
		if (err)
			return err;
	}
	return BINO_OK;
}

BINO_PUBLIC void bino_audit_set_progress(struct bino_audit *audit,
					 bino_audit_progress_fn *fn, void *data)
{
	if (!audit)
		return;

	audit->progress = fn;
	audit->progress_data = data;
}

BINO_PUBLIC enum bino_error bino_audit_run(struct bino_audit *audit)
{
	enum bino_error err;
	size_t i;

	if (!audit || audit->ran || audit->count == 0)
		return BINO_ERROR_INVALID_ARGUMENT;
	audit->ran = true;
	err = audit_server_mounts(audit);
	if (err)
		return err;
	for (i = 0; i < audit->count; i++) {
		struct bino_audit_target *target = audit->items[i];

		if (target->error)
			continue;
		target->filesystem = bino__mounts_holding(audit->server,
							  target->path);
		if (!target->filesystem) {
			target->error = BINO_ERROR_NOT_FOUND;
			target->error_errno = 0;
			continue;
		}
		/* On an NFS mount of this machine: what this client sees. */
		target->client_view =
			!bino__mounts_from_file(audit->server) &&
			bino__mount_fs_kind(target->filesystem) == BINO_FS_NFS;
		err = audit_walk_target(audit, target);
		if (err)
			return err;
	}
	return BINO_OK;
}
