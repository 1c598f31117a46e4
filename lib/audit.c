/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit: walk each exported path by true identity and count the entries
 * whose NFS client key (client filesystem, inode) is not unique.
 * Components, top to bottom:
 *
 *  - audit_add_target(): the list of paths to audit, each with the export
 *    options that apply (nfsview.c resolves the export table).
 *  - audit_walk_*(): one walk per path, with a stack of levels (one per
 *    depth: client filesystem, export flags, client key, path length) so
 *    that ancestors are known without post-order visits.
 *  - audit_walk_mountpoint(): at a server mount point, what the client sees
 *    (bino__nfsview_cross()): a new client filesystem, the same one, or the
 *    covered directory, identified from its parent's readdir.  The server's
 *    mount table is the one given (a file, offline): a mount of this machine
 *    it does not list is not crossed either (audit_walk_unlisted()), and
 *    the mount holding each path is the table's (bino__mounts_holding()).
 *  - audit_walk_count(): the three collision classes, from the ancestors
 *    (loops) and the client key table (hard links, plain), with examples
 *    and subvolume pairs.
 *  - audit_note_device() and audit_note_subvol(): raw st_dev values and
 *    subvolumes met, completed after the walk (audit_finish_subvols()).
 *
 * Memory and stat calls follow the keys that collide, not the tree:
 *
 *  - The client key table (ckeys.c) keeps, per client filesystem, a
 *    compressed bitmap of the inode numbers met, and per identity (client
 *    filesystem, dev, subvolume) those first met in it.  Only a key met a
 *    second time gets a group: the identity of its first entry (found in
 *    those bitmaps), the first other identity met and a count, and the same
 *    for the hardlink class.  No path is kept per key.
 *  - nlink matters only for the hardlink class, so a non-directory is
 *    stat'ed only when its key was met before (it may collide), plus one
 *    probe per directory, so that entries stat cannot see (a directory
 *    readable but not searchable) are still counted unreadable.  A key's
 *    first entry is therefore not stat'ed: its group's first_links is
 *    unknown until another entry of the same identity (the same inode) is
 *    stat'ed.  Until then its hardlink-class entries wait in order on the
 *    group's pending list and are replayed when it is known.
 *  - On btrfs, with CAP_SYS_ADMIN, even that stat is mostly avoided: which
 *    inodes of a subvolume have several names is read from its tree in one
 *    pass (btrfslinks.c), by a helper thread that reads the subvolumes
 *    below the audited path in the walk's order, ahead of it, when that
 *    path is on btrfs; a subvolume the walk reaches first (and every one
 *    below a path on another filesystem) is stat'ed, then read by the
 *    walk's thread once LINKS_AFTER_STATS of its entries needed nlink
 *    (audit_links_known()).  Either way the set read becomes the
 *    identity's own (ckeys.c), so nothing points into the helper or into
 *    the growing table of identities.
 *  - Examples need the path of the first entry of the key (of the identity
 *    that entry has), which was not kept.  A second, targeted walk
 *    (audit_find_*()) finds those at most 2 * BINO_AUDIT_EXAMPLES_MAX paths
 *    and stats the first entries of the groups still unknown with pending
 *    entries; it stops as soon as nothing is missing, which is early in the
 *    walk on snapshot-heavy trees (first entries come before their
 *    collisions).  Examples are kept sorted by walk order (the entry's
 *    sequence number), so the replayed hardlink entries take their place.
 *    Should the tree change between the walks, an example whose first path
 *    is not found again is dropped, and an unknown first entry counts as
 *    having one link.
 *
 * The library prints nothing: the results are read through accessors.
 */
#include "audit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "btrfslinks.h"
#include "getdents.h"
#include "hash.h"
#include "mounts.h"
#include "subvol.h"

#define AUDIT_ALL_FLAGS (BINO_AUDIT_NFSV4)
#define PROGRESS_EVERY 4096
/*
 * Entries of a btrfs subvolume stat'ed for nlink before its inodes with
 * several names are read from its tree at once instead.
 */
#define LINKS_AFTER_STATS 64

struct bino_audit_example {
	char *path[2]; /* path[0] NULL until the second walk finds it */
	struct bino_key key[2];
	size_t client_fs;
	uint64_t seq; /* walk order of the colliding entry */
	uint32_t first_identity; /* of path[0], for the second walk */
};

struct bino_audit_submount {
	const struct bino_mount *mount;
	enum bino_submount_view view;
	size_t client_fs;
};

struct bino_audit_subvol {
	uint64_t dev;
	uint64_t id;
	char *path;
	char *fs_path;
	enum bino_error info_error;
	int info_errno;
	struct bino__subvol_info info;
	uint64_t walk_parent_id; /* of the directory it was met in, or 0 */
	uint64_t snapshot_of;
	size_t client_fs;
	const struct bino_mount **mounts;
	size_t n_mounts, cap_mounts;
};

struct bino_audit_device {
	uint64_t dev;
	enum bino_device_kind kind;
	uint64_t entries;
	char *path;
	uint64_t subvolid;
	const struct bino_mount *mount;
	UT_hash_handle hh;
};

struct bino_audit_pair {
	uint64_t subvolid_a;
	uint64_t subvolid_b;
	uint64_t collisions[BINO_COLLISION_NR];
};

struct bino_audit_export {
	struct bino_audit *audit;
	char *path;
	bool resolved;
	const struct bino_export *source;
	bool covered; /* source exports a directory above path */
	const struct bino_mount *filesystem; /* of the server table */
	int flags;
	enum bino_error error;
	int error_errno;
	uint64_t entries;
	uint64_t unreadable;
	uint64_t collisions[BINO_COLLISION_NR];
	struct bino_audit_example examples[BINO_COLLISION_NR]
					  [BINO_AUDIT_EXAMPLES_MAX];
	size_t n_examples[BINO_COLLISION_NR];
	struct bino_audit_pair *pairs;
	size_t n_pairs, cap_pairs;
	size_t last_pair; /* consecutive entries tend to share their pair */
	struct bino_audit_submount *submounts;
	size_t n_submounts, cap_submounts;
	size_t n_client_fs;
	struct bino_audit_subvol *subvols;
	size_t n_subvols, cap_subvols;
	struct bino_audit_device **devices;
	size_t n_devices, cap_devices;
	struct bino_audit_device *device_index;
};

struct bino_audit {
	const struct bino_exports *exports;
	const struct bino_mounts *server; /* given, or own_mounts */
	struct bino_mounts *own_mounts; /* this process's table */
	int flags;
	bool ran;
	struct nfsview_exports *resolved;
	struct bino_audit_export **items;
	size_t count, cap;
	bino_audit_progress_fn *progress;
	void *progress_data;
	bool no_tree_search; /* not allowed to read btrfs trees: stat */
};

/* What the walk keeps of each directory on the current path. */
struct audit_level {
	size_t client_fs;
	int flags; /* export flags of the client filesystem */
	uint64_t ino;
	struct bino_key key;
	size_t path_len;
	enum {
		PROBE_NONE, /* no child stat'ed yet */
		PROBE_OK, /* children can be stat'ed */
		PROBE_FAILED, /* they cannot: stat each, as unreadable */
	} probe;
};

/* A hardlink-class entry waiting for its group's first_links. */
struct link_event {
	uint64_t seq;
	uint32_t identity;
	uint32_t next;
	char *path; /* NULL once it can no longer be an example */
};

struct audit_walk {
	struct bino_audit *audit;
	struct bino_audit_export *export;
	struct bino_walk *walk;
	struct nfsview_mounts *submounts;
	struct ckey_table *groups;
	struct audit_level *levels;
	size_t cap_levels;
	uint64_t next_progress;
	int pass; /* 1 counts, 2 finds what the first left missing */
	uint64_t seq; /* entries counted so far */
	struct link_event *events;
	size_t n_events, cap_events;
	uint64_t *waiting; /* (client_fs, ino) of groups with events */
	size_t n_waiting, cap_waiting;
	size_t missing; /* second walk: paths and first entries to find */
	struct bino__links_ahead *ahead; /* NULL off btrfs */
};

/* ---- the paths to audit ------------------------------------------------ */

static void audit_export_free(struct bino_audit_export *export)
{
	struct bino_audit_device *device, *tmp;
	size_t i, j;

	if (!export)
		return;
	for (i = 0; i < BINO_COLLISION_NR; i++) {
		for (j = 0; j < export->n_examples[i]; j++) {
			free(export->examples[i][j].path[0]);
			free(export->examples[i][j].path[1]);
		}
	}
	free(export->pairs);
	free(export->submounts);
	for (i = 0; i < export->n_subvols; i++) {
		free(export->subvols[i].path);
		free(export->subvols[i].fs_path);
		free(export->subvols[i].mounts);
	}
	free(export->subvols);
	HASH_ITER(hh, export->device_index, device, tmp) {
		HASH_DEL(export->device_index, device);
		free(device->path);
		free(device);
	}
	free(export->devices);
	free(export->path);
	free(export);
}

/*
 * Add @path, audited with export flags @flags from @source (NULL: not
 * exported), which names the path or (@covered) a directory above it.
 */
static enum bino_error audit_add_target(struct bino_audit *audit,
					const char *path, bool resolved,
					const struct bino_export *source,
					int flags, bool covered)
{
	struct bino_audit_export *export;
	size_t i;

	for (i = 0; i < audit->count; i++) {
		if (strcmp(audit->items[i]->path, path) == 0 &&
		    (audit->items[i]->flags & BINO_EXPORT_CROSSMNT) ==
			    (flags & BINO_EXPORT_CROSSMNT))
			return BINO_OK;
	}
	if (ARRAY_RESERVE(audit->items, audit->cap, audit->count + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	export = calloc(1, sizeof(*export));
	if (!export)
		return BINO_ERROR_NO_MEMORY;
	export->audit = audit;
	export->path = strdup(path);
	if (!export->path) {
		free(export);
		return BINO_ERROR_NO_MEMORY;
	}
	export->resolved = resolved;
	export->source = source;
	export->covered = covered;
	export->flags = flags;
	if (!resolved) {
		export->error = BINO_ERROR_STAT_FAILED;
		export->error_errno = errno;
	}
	audit->items[audit->count++] = export;
	return BINO_OK;
}

/* ---- devices and subvolumes -------------------------------------------- */

static enum bino_error audit_note_device(struct audit_walk *aw,
					 struct bino_entry *entry)
{
	struct bino_audit_export *export = aw->export;
	const struct bino_mounts *live = bino_walk_mounts(aw->walk);
	struct bino_audit_device *device;
	const struct bino_mount *mount;
	uint64_t dev = bino_entry_st_dev(entry);
	bool out_of_memory = false;

	HASH_FIND(hh, export->device_index, &dev, sizeof(dev), device);
	if (device) {
		device->entries++;
		return BINO_OK;
	}
	if (ARRAY_RESERVE(export->devices, export->cap_devices,
			  export->n_devices + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	device = calloc(1, sizeof(*device));
	if (!device)
		return BINO_ERROR_NO_MEMORY;
	device->path = strdup(bino_entry_path(entry));
	if (!device->path) {
		free(device);
		return BINO_ERROR_NO_MEMORY;
	}
	device->dev = dev;
	device->entries = 1;
	mount = bino_entry_mount(entry);
	/* The walk's table ends with the walk; keep the audit's own. */
	if (mount)
		device->mount = bino_mounts_find_id(aw->audit->own_mounts,
						    bino_mount_id(mount));
	device->subvolid = bino_entry_key(entry).subvolid;
	if (bino_mounts_find_dev(live, dev))
		device->kind = BINO_DEVICE_LISTED;
	else if (mount && strcmp(bino_mount_fstype(mount), "btrfs") == 0 &&
		 device->subvolid)
		device->kind = BINO_DEVICE_BTRFS_SUBVOL;
	else if (mount && strcmp(bino_mount_fstype(mount), "overlay") == 0)
		device->kind = BINO_DEVICE_OVERLAY;
	else
		device->kind = BINO_DEVICE_ANOMALY;
	HASH_ADD(hh, export->device_index, dev, sizeof(device->dev), device);
	if (out_of_memory) {
		free(device->path);
		free(device);
		return BINO_ERROR_NO_MEMORY;
	}
	export->devices[export->n_devices++] = device;
	return BINO_OK;
}

/* The path of @path inside its filesystem, from @mount's mountinfo root. */
static char *fs_path_of(const struct bino_mount *mount, const char *path)
{
	const char *target = bino_mount_target(mount);
	const char *root = bino_mount_root(mount);
	size_t target_len = strlen(target);
	const char *rel;
	char *result;

	if (strcmp(target, "/") == 0)
		rel = path;
	else if (strncmp(path, target, target_len) == 0 &&
		 (path[target_len] == '/' || path[target_len] == '\0'))
		rel = path + target_len;
	else
		return NULL;
	if (strcmp(root, "/") == 0)
		root = "";
	if (!*root && !*rel)
		return strdup("/");
	result = malloc(strlen(root) + strlen(rel) + 1);
	if (result) {
		strcpy(result, root);
		strcat(result, rel);
	}
	return result;
}

/*
 * Record the subvolume of @entry, if new: a subvolume root, or (@holding)
 * the subvolume holding the audited path.
 */
static enum bino_error audit_note_subvol(struct audit_walk *aw,
					 struct bino_entry *entry,
					 size_t client_fs, bool holding)
{
	struct bino_audit_export *export = aw->export;
	struct bino_key key = bino_entry_key(entry);
	const struct bino_mount *mount = bino_entry_mount(entry);
	struct bino_audit_subvol *subvol;
	bool is_root = bino_entry_flags(entry) & BINO_ENTRY_SUBVOL_ROOT;
	int depth = bino_entry_depth(entry);
	size_t i;
	int fd;

	if (!key.subvolid)
		return BINO_OK;
	for (i = 0; i < export->n_subvols; i++) {
		if (export->subvols[i].id == key.subvolid &&
		    export->subvols[i].dev == key.dev)
			return BINO_OK;
	}
	if (ARRAY_RESERVE(export->subvols, export->cap_subvols,
			  export->n_subvols + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	subvol = &export->subvols[export->n_subvols];
	memset(subvol, 0, sizeof(*subvol));
	subvol->dev = key.dev;
	subvol->id = key.subvolid;
	subvol->client_fs = client_fs;
	/*
	 * A subvolume's root is linked in its parent's tree, so the parent is
	 * the subvolume of the directory it was met in, unless it was reached
	 * through a mount: known even when its root cannot be opened.
	 */
	if (is_root && depth > 0 &&
	    !(bino_entry_flags(entry) & BINO_ENTRY_MOUNT_ROOT) &&
	    aw->levels[depth - 1].key.dev == key.dev)
		subvol->walk_parent_id = aw->levels[depth - 1].key.subvolid;
	if (is_root || !holding) {
		subvol->path = strdup(bino_entry_path(entry));
		if (!subvol->path)
			return BINO_ERROR_NO_MEMORY;
		if (mount) {
			subvol->fs_path = fs_path_of(mount, subvol->path);
			if (!subvol->fs_path && errno == ENOMEM) {
				free(subvol->path);
				return BINO_ERROR_NO_MEMORY;
			}
		}
	}
	export->n_subvols++;
	fd = open(bino_entry_path(entry),
		  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		subvol->info_error = BINO_ERROR_OPEN_FAILED;
	else if (bino__subvol_info_fd(fd, &subvol->info) != 0)
		subvol->info_error = BINO_ERROR_SUBVOL_INFO_FAILED;
	if (subvol->info_error)
		subvol->info_errno = errno ? errno : EIO;
	else if (subvol->info.id != subvol->id) {
		/* replaced since it was walked */
		subvol->info_error = BINO_ERROR_CHANGED_DURING_WALK;
		subvol->info_errno = ESTALE;
	}
	if (fd >= 0)
		close(fd);
	return BINO_OK;
}

/* Server mounts of each subvolume: same filesystem, and its root. */
static enum bino_error audit_subvol_mounts(struct bino_audit *audit,
					   struct bino_audit_export *export,
					   struct bino_audit_subvol *subvol)
{
	const struct bino_mounts *server = audit->server;
	const struct bino_mount *live =
		bino_mounts_find_dev(audit->own_mounts, subvol->dev);
	size_t i, n = bino_mounts_count(server);

	for (i = 0; i < n; i++) {
		const struct bino_mount *mount = bino_mounts_get(server, i);
		bool same_fs;

		if (strcmp(bino_mount_fstype(mount), "btrfs") != 0)
			continue;
		same_fs = bino_mount_dev(mount) == subvol->dev ||
			  (live && *bino_mount_source(live) &&
			   strcmp(bino_mount_source(live),
				  bino_mount_source(mount)) == 0);
		if (!same_fs)
			continue;
		if (subvol->fs_path ?
			    strcmp(bino_mount_root(mount), subvol->fs_path) != 0 :
			    bino_mount_subvolid(mount) != subvol->id)
			continue;
		if (ARRAY_RESERVE(subvol->mounts, subvol->cap_mounts,
				  subvol->n_mounts + 1) != 0)
			return BINO_ERROR_NO_MEMORY;
		subvol->mounts[subvol->n_mounts++] = mount;
	}
	(void)export;
	return BINO_OK;
}

struct uuid_lookup {
	const uint8_t *uuid;
	uint64_t id;
};

static int uuid_lookup_one(const char *path,
			   const struct bino__subvol_info *info, void *data)
{
	struct uuid_lookup *lookup = data;

	(void)path;
	if (memcmp(info->uuid, lookup->uuid, sizeof(info->uuid)) != 0)
		return 0;
	lookup->id = info->id;
	return 1;
}

/* What each snapshot is a snapshot of, and where each subvolume is mounted. */
static enum bino_error audit_finish_subvols(struct bino_audit *audit,
					    struct bino_audit_export *export)
{
	size_t i, j;
	enum bino_error err;

	for (i = 0; i < export->n_subvols; i++) {
		struct bino_audit_subvol *subvol = &export->subvols[i];
		struct uuid_lookup lookup;

		err = audit_subvol_mounts(audit, export, subvol);
		if (err)
			return err;
		if (subvol->info_errno || !subvol->info.is_snapshot)
			continue;
		for (j = 0; j < export->n_subvols; j++) {
			const struct bino_audit_subvol *other = &export->subvols[j];

			if (!other->info_errno &&
			    memcmp(other->info.uuid, subvol->info.parent_uuid,
				   sizeof(other->info.uuid)) == 0) {
				subvol->snapshot_of = other->id;
				break;
			}
		}
		if (subvol->snapshot_of)
			continue;
		/* Outside the tree: the whole list needs CAP_SYS_ADMIN. */
		lookup.uuid = subvol->info.parent_uuid;
		lookup.id = 0;
		if (bino__subvol_list(export->path, true, uuid_lookup_one,
				      &lookup) != 1)
			bino__subvol_list(export->path, false, uuid_lookup_one,
					  &lookup);
		subvol->snapshot_of = lookup.id;
	}
	return BINO_OK;
}

/* ---- counting ---------------------------------------------------------- */

static enum bino_error audit_add_pair(struct bino_audit_export *export,
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
	if (export->last_pair < export->n_pairs) {
		pair = &export->pairs[export->last_pair];
		if (pair->subvolid_a == a && pair->subvolid_b == b) {
			pair->collisions[collision] += count;
			return BINO_OK;
		}
	}
	for (i = 0; i < export->n_pairs; i++) {
		pair = &export->pairs[i];
		if (pair->subvolid_a == a && pair->subvolid_b == b) {
			pair->collisions[collision] += count;
			export->last_pair = i;
			return BINO_OK;
		}
	}
	if (ARRAY_RESERVE(export->pairs, export->cap_pairs,
			  export->n_pairs + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	export->last_pair = export->n_pairs;
	pair = &export->pairs[export->n_pairs++];
	memset(pair, 0, sizeof(*pair));
	pair->subvolid_a = a;
	pair->subvolid_b = b;
	pair->collisions[collision] = count;
	return BINO_OK;
}

/* Whether an entry of walk order @seq can still be an example of a class. */
static bool audit_example_wanted(const struct bino_audit_export *export,
				 enum bino_collision collision, uint64_t seq)
{
	size_t n = export->n_examples[collision];

	return n < BINO_AUDIT_EXAMPLES_MAX ||
	       seq < export->examples[collision][n - 1].seq;
}

/*
 * Keep an example in walk order (@seq), the first BINO_AUDIT_EXAMPLES_MAX
 * only.  @path_a may be NULL (found by the second walk, from
 * @first_identity); @path_b is copied.
 */
static enum bino_error audit_add_example(struct bino_audit_export *export,
					 enum bino_collision collision,
					 uint64_t seq, const char *path_a,
					 size_t len_a,
					 const struct bino_key *key_a,
					 uint32_t first_identity,
					 const char *path_b,
					 const struct bino_key *key_b,
					 size_t client_fs)
{
	struct bino_audit_example *examples = export->examples[collision];
	struct bino_audit_example example;
	size_t n = export->n_examples[collision], at;

	if (!path_b || !audit_example_wanted(export, collision, seq))
		return BINO_OK;
	memset(&example, 0, sizeof(example));
	example.path[0] = path_a ? strndup(path_a, len_a) : NULL;
	example.path[1] = strdup(path_b);
	if ((path_a && !example.path[0]) || !example.path[1]) {
		free(example.path[0]);
		free(example.path[1]);
		return BINO_ERROR_NO_MEMORY;
	}
	example.key[0] = *key_a;
	example.key[1] = *key_b;
	example.client_fs = client_fs;
	example.seq = seq;
	example.first_identity = first_identity;
	if (n == BINO_AUDIT_EXAMPLES_MAX) {
		n--;
		free(examples[n].path[0]);
		free(examples[n].path[1]);
	}
	for (at = n; at > 0 && examples[at - 1].seq > seq; at--)
		;
	memmove(&examples[at + 1], &examples[at], (n - at) * sizeof(*examples));
	examples[at] = example;
	export->n_examples[collision] = n + 1;
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
 * Count one entry of identity @id in a class's group (*@first, *@other,
 * *@paths, see struct ckey_group): when the group first meets a second
 * identity, every entry met so far collides, then each one that follows.
 * Each colliding entry of another identity than the first is an example.
 */
static enum bino_error audit_group_add(struct audit_walk *aw,
				       enum bino_collision collision,
				       uint32_t *first, uint32_t *other,
				       uint64_t *paths, uint32_t id,
				       uint64_t ino, const char *path,
				       size_t client_fs, uint64_t seq)
{
	struct bino_audit_export *export = aw->export;
	struct bino_key key_a, key_b;
	uint64_t count;
	enum bino_error err;

	(*paths)++;
	if (*paths == 1) {
		*first = id;
		return BINO_OK;
	}
	if (id == *first) {
		if (*other == CKEY_NONE)
			return BINO_OK;
		/* It collides with the other identity already met. */
		export->collisions[collision]++;
		return audit_add_pair(export, audit_subvolid(aw, *first),
				      audit_subvolid(aw, *other), collision, 1);
	}
	count = *other == CKEY_NONE ? *paths : 1;
	export->collisions[collision] += count;
	err = audit_add_pair(export, audit_subvolid(aw, *first),
			     audit_subvolid(aw, id), collision, count);
	if (*other == CKEY_NONE)
		*other = id;
	if (err)
		return err;
	key_a = audit_key(aw, *first, ino);
	key_b = audit_key(aw, id, ino);
	return audit_add_example(export, collision, seq, NULL, 0, &key_a,
				 *first, path, &key_b, client_fs);
}

/*
 * The group's first entry is now known to be (@links) or not a
 * non-directory with several links: count it in the hardlink class, then
 * the entries that waited for this.
 */
static enum bino_error audit_group_resolve(struct audit_walk *aw,
					   struct ckey_group *group,
					   bool links, uint64_t ino,
					   size_t client_fs)
{
	enum bino_error err = BINO_OK;
	uint32_t i;

	group->first_links = links ? CKEY_FIRST_LINKS_YES : CKEY_FIRST_LINKS_NO;
	if (links) {
		group->first_link = group->first;
		group->link_paths = 1;
	}
	for (i = group->pending; i != CKEY_NONE; i = aw->events[i].next) {
		struct link_event *event = &aw->events[i];

		if (!err)
			err = audit_group_add(aw, BINO_COLLISION_HARDLINK,
					      &group->first_link,
					      &group->other_link,
					      &group->link_paths,
					      event->identity, ino, event->path,
					      client_fs, event->seq);
		free(event->path);
		event->path = NULL;
	}
	group->pending = CKEY_NONE;
	group->pending_tail = CKEY_NONE;
	return err;
}

/* Queue a hardlink-class entry until the group's first_links is known. */
static enum bino_error audit_group_wait(struct audit_walk *aw,
					struct ckey_group *group, uint32_t id,
					uint64_t ino, const char *path,
					size_t client_fs, uint64_t seq)
{
	struct link_event *event;

	if (aw->n_events >= CKEY_NONE ||
	    ARRAY_RESERVE(aw->events, aw->cap_events, aw->n_events + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	if (group->pending == CKEY_NONE) {
		if (ARRAY_RESERVE(aw->waiting, aw->cap_waiting,
				  aw->n_waiting + 2) != 0)
			return BINO_ERROR_NO_MEMORY;
		aw->waiting[aw->n_waiting++] = client_fs;
		aw->waiting[aw->n_waiting++] = ino;
	}
	event = &aw->events[aw->n_events];
	event->seq = seq;
	event->identity = id;
	event->next = CKEY_NONE;
	event->path = NULL;
	if (audit_example_wanted(aw->export, BINO_COLLISION_HARDLINK, seq)) {
		event->path = strdup(path);
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
 * Count an entry: @nlink is known (stat'ed) whenever its key was met
 * before and it is no directory.
 */
static enum bino_error audit_walk_count(struct audit_walk *aw,
					struct bino_entry *entry, int depth,
					bool is_dir, uint64_t nlink)
{
	struct bino_audit_export *export = aw->export;
	struct audit_level *level = &aw->levels[depth];
	const char *path = bino_entry_path(entry);
	uint64_t seq = aw->seq++;
	struct ckey_group *group;
	enum bino_error err;
	bool created, links = !is_dir && nlink >= 2;
	uint32_t id;
	int k;

	if (is_dir) {
		for (k = depth - 1; k >= 0; k--) {
			const struct audit_level *up = &aw->levels[k];

			if (up->client_fs != level->client_fs ||
			    up->ino != level->ino)
				continue;
			export->collisions[BINO_COLLISION_LOOP]++;
			err = audit_add_pair(export, up->key.subvolid,
					     level->key.subvolid,
					     BINO_COLLISION_LOOP, 1);
			if (!err)
				err = audit_add_example(export,
							BINO_COLLISION_LOOP,
							seq, path, up->path_len,
							&up->key, CKEY_NONE,
							path, &level->key,
							level->client_fs);
			if (err)
				return err;
			break;
		}
	}
	err = bino__ckey_identity(aw->groups, level->client_fs,
				  level->key.dev, level->key.subvolid, &id);
	if (!err)
		err = bino__ckey_table_add(aw->groups, id, level->ino, &group,
					   &created);
	if (err || !group)
		return err; /* the key's first entry: nothing collides yet */
	err = audit_group_add(aw, BINO_COLLISION_PLAIN, &group->first,
			      &group->other, &group->paths, id, level->ino,
			      path, level->client_fs, seq);
	if (err)
		return err;
	if (group->first_links == CKEY_FIRST_LINKS_UNKNOWN) {
		if (id == group->first) {
			/* The same inode as the first entry: now it is known. */
			err = audit_group_resolve(aw, group, links, level->ino,
						  level->client_fs);
		} else if (links) {
			return audit_group_wait(aw, group, id, level->ino,
						path, level->client_fs, seq);
		}
		if (err)
			return err;
	}
	if (!links)
		return BINO_OK;
	return audit_group_add(aw, BINO_COLLISION_HARDLINK, &group->first_link,
			       &group->other_link, &group->link_paths, id,
			       level->ino, path, level->client_fs, seq);
}

/* ---- the second walk: what the first could not know -------------------- */

/* Paths of examples still missing and first entries still to stat. */
static size_t audit_find_missing(const struct audit_walk *aw)
{
	const struct bino_audit_export *export = aw->export;
	size_t missing = 0, i;

	for (i = 0; i < export->n_examples[BINO_COLLISION_PLAIN]; i++)
		missing += !export->examples[BINO_COLLISION_PLAIN][i].path[0];
	for (i = 0; i < export->n_examples[BINO_COLLISION_HARDLINK]; i++)
		missing += !export->examples[BINO_COLLISION_HARDLINK][i].path[0];
	for (i = 0; i < aw->n_waiting; i += 2) {
		const struct ckey_group *group = bino__ckey_table_find(
			aw->groups, aw->waiting[i], aw->waiting[i + 1]);

		missing += group && group->need_first;
	}
	return missing;
}

/* Groups whose first entry the second walk must stat. */
static void audit_find_mark(struct audit_walk *aw)
{
	size_t i;

	for (i = 0; i < aw->n_waiting; i += 2) {
		struct ckey_group *group = bino__ckey_table_find(
			aw->groups, aw->waiting[i], aw->waiting[i + 1]);

		if (group && group->first_links == CKEY_FIRST_LINKS_UNKNOWN &&
		    group->pending != CKEY_NONE)
			group->need_first = true;
	}
}

/*
 * After the second walk: what it did not find (the tree changed) counts
 * as one link, and examples without a first path are dropped.
 */
static enum bino_error audit_find_finish(struct audit_walk *aw)
{
	struct bino_audit_export *export = aw->export;
	enum bino_error err = BINO_OK;
	size_t i, j, c;

	for (i = 0; i < aw->n_waiting; i += 2) {
		struct ckey_group *group = bino__ckey_table_find(
			aw->groups, aw->waiting[i], aw->waiting[i + 1]);

		if (!err && group && group->need_first) {
			group->need_first = false;
			err = audit_group_resolve(aw, group, false,
						  aw->waiting[i + 1],
						  aw->waiting[i]);
		}
	}
	for (c = BINO_COLLISION_HARDLINK; c <= BINO_COLLISION_PLAIN; c++) {
		struct bino_audit_example *examples = export->examples[c];

		for (i = j = 0; i < export->n_examples[c]; i++) {
			if (examples[i].path[0]) {
				examples[j++] = examples[i];
				continue;
			}
			free(examples[i].path[1]);
		}
		export->n_examples[c] = j;
	}
	return err;
}

/* Whether an example's first path is this entry's (@id, @ino, @client_fs). */
static bool audit_find_wanted(const struct audit_walk *aw, uint32_t id,
			      uint64_t ino, size_t client_fs)
{
	const struct bino_audit_export *export = aw->export;
	size_t i, c;

	for (c = BINO_COLLISION_HARDLINK; c <= BINO_COLLISION_PLAIN; c++) {
		for (i = 0; i < export->n_examples[c]; i++) {
			const struct bino_audit_example *example =
				&export->examples[c][i];

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
	struct bino_audit_export *export = aw->export;
	size_t i, c;

	for (c = BINO_COLLISION_HARDLINK; c <= BINO_COLLISION_PLAIN; c++) {
		for (i = 0; i < export->n_examples[c]; i++) {
			struct bino_audit_example *example =
				&export->examples[c][i];

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
static enum bino_error audit_find_entry(struct audit_walk *aw,
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

	if (!group)
		return BINO_OK; /* met once: never an example's */
	err = bino__ckey_identity(aw->groups, level->client_fs, level->key.dev,
				  level->key.subvolid, &id);
	if (err)
		return err;
	if (!group->need_first &&
	    !audit_find_wanted(aw, id, level->ino, level->client_fs))
		return BINO_OK;
	if (!is_dir) {
		if (bino_entry_stat(entry, &st) != BINO_OK)
			return BINO_OK;
		links = st.nlink >= 2;
	}
	if (group->need_first) {
		/* The key's first entry, met again. */
		group->need_first = false;
		err = audit_group_resolve(aw, group, links && id == group->first,
					  level->ino, level->client_fs);
	}
	if (!err)
		err = audit_find_paths(aw, id, level->ino, level->client_fs,
				       bino_entry_path(entry));
	if (!err)
		aw->missing = audit_find_missing(aw);
	return err;
}

/* ---- the walk ---------------------------------------------------------- */

static enum bino_error audit_add_submount(struct bino_audit_export *export,
					  const struct bino_mount *mount,
					  enum bino_submount_view view,
					  size_t client_fs)
{
	struct bino_audit_submount *submount;

	if (ARRAY_RESERVE(export->submounts, export->cap_submounts,
			  export->n_submounts + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	submount = &export->submounts[export->n_submounts++];
	submount->mount = mount;
	submount->view = view;
	submount->client_fs = client_fs;
	return BINO_OK;
}

/*
 * The inode number @name has in directory @dir: readdir does not cross
 * mounts, so this is the directory a mount covers.  0 if not found.
 */
static uint64_t covered_ino(const char *dir, const char *name)
{
	char buffer[16384] __attribute__((aligned(8)));
	uint64_t ino = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	long n;

	if (fd < 0)
		return 0;
	while (!ino && (n = bino__getdents64(fd, buffer, sizeof(buffer))) > 0) {
		long offset;

		for (offset = 0; offset < n;) {
			const struct linux_dirent64 *dent =
				(const void *)(buffer + offset);

			offset += dent->d_reclen;
			if (strcmp(dent->d_name, name) == 0) {
				ino = dent->d_ino;
				break;
			}
		}
	}
	close(fd);
	return ino;
}

/*
 * What the client sees at a mount point it does not cross: the directory
 * the mount covers, in its parent's subvolume, identified from its parent's
 * readdir; *@level then holds it (its ino 0 if even that is unknown).
 */
static void audit_walk_covered(struct bino_entry *entry,
			       struct audit_level *level, enum bino_error *err)
{
	const struct audit_level *parent = level - 1;
	char *dir = strndup(bino_entry_path(entry), parent->path_len);

	if (!dir) {
		*err = BINO_ERROR_NO_MEMORY;
		return;
	}
	level->key = parent->key;
	level->ino = covered_ino(dir, bino_entry_name(entry));
	level->key.ino = level->ino;
	free(dir);
}

/*
 * A directory at depth > 0 that is a server mount point: decide its client
 * filesystem in *@level.  Returns true when its content is to be walked,
 * false when the client sees the covered directory instead (then *@level
 * holds that directory, or its ino is 0 if even that is unknown).
 */
static bool audit_walk_mountpoint(struct audit_walk *aw,
				  struct bino_entry *entry,
				  const struct bino_mount *mount,
				  struct audit_level *level,
				  enum bino_error *err)
{
	struct bino_audit_export *export = aw->export;
	const struct audit_level *parent = level - 1;
	enum bino_submount_view view;
	int child_flags;

	view = bino__nfsview_cross(aw->audit->resolved, aw->audit->server,
				   mount, bino_entry_path(entry),
				   parent->flags, aw->audit->flags,
				   &child_flags);
	switch (view) {
	case BINO_SUBMOUNT_CROSSMNT:
	case BINO_SUBMOUNT_NOHIDE:
	case BINO_SUBMOUNT_NFSV4:
		level->client_fs = export->n_client_fs++;
		level->flags = child_flags;
		*err = aw->pass == 1 ? audit_add_submount(export, mount, view,
							 level->client_fs) :
					 BINO_OK;
		return true;
	case BINO_SUBMOUNT_SAME_CONTENT:
		*err = aw->pass == 1 ? audit_add_submount(export, mount, view,
							 level->client_fs) :
					 BINO_OK;
		return true;
	case BINO_SUBMOUNT_HIDDEN:
	case BINO_SUBMOUNT_UNLISTED:
		break;
	}
	*err = aw->pass == 1 ? audit_add_submount(export, mount, view,
							 level->client_fs) :
					 BINO_OK;
	if (!*err)
		audit_walk_covered(entry, level, err);
	return false;
}

/*
 * A directory at depth > 0 that is a mount of this machine but not of the
 * server mount table read from a file (offline): on that server it is no
 * mount point, and the directory there is the one this mount covers, whose
 * content cannot be read here.  Not crossed: the covered directory is
 * counted in its parent's client filesystem and the mount is reported as
 * BINO_SUBMOUNT_UNLISTED (from the process's own table, which outlives the
 * walk).
 */
static void audit_walk_unlisted(struct audit_walk *aw, struct bino_entry *entry,
				struct audit_level *level, enum bino_error *err)
{
	const struct bino_mount *here = bino_entry_mount(entry);
	const struct bino_mount *mount =
		here ? bino_mounts_find_id(aw->audit->own_mounts,
					   bino_mount_id(here)) :
		       NULL;

	*err = BINO_OK;
	/* A mount made since the audit began is not in the table to keep. */
	if (mount && aw->pass == 1)
		*err = audit_add_submount(aw->export, mount,
					  BINO_SUBMOUNT_UNLISTED,
					  level->client_fs);
	if (!*err)
		audit_walk_covered(entry, level, err);
}

static void audit_walk_progress(struct audit_walk *aw, bool last)
{
	if (!aw->audit->progress)
		return;
	if (!last && aw->export->entries < aw->next_progress)
		return;
	aw->next_progress = aw->export->entries + PROGRESS_EVERY;
	aw->audit->progress(aw->export, aw->export->entries,
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

static int audit_links_add(uint64_t ino, void *data)
{
	if (bino__inoset_add(data, ino) < 0) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
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
	uint64_t fd_subvolid;

	identity->links = CKEY_LINKS_UNAVAILABLE;
	if (fd < 0)
		return;
	errno = 0;
	if (bino__subvolid_ioctl(fd, &fd_subvolid) == 0 &&
	    fd_subvolid == subvolid &&
	    bino__btrfs_multilinked(fd, subvolid, NULL, audit_links_add,
				    links) == 0) {
		identity->links = CKEY_LINKS_READ;
	} else {
		if (errno == EPERM || errno == EACCES)
			aw->audit->no_tree_search = true;
		bino__inoset_clear(links); /* what a failed read added */
	}
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

	if (aw->audit->no_tree_search || !level->key.subvolid ||
	    parent->key.dev != level->key.dev ||
	    parent->key.subvolid != level->key.subvolid ||
	    parent->client_fs != level->client_fs)
		return false;
	if (bino__ckey_identity(aw->groups, level->client_fs, level->key.dev,
				level->key.subvolid, &id))
		return false;
	/* Valid until the table's destroy, however many identities follow. */
	identity = bino__ckey_identity_get(aw->groups, id);
	if (identity->links == CKEY_LINKS_UNREAD && aw->ahead &&
	    !identity->ahead_asked) {
		identity->ahead_asked = true;
		/* Else read here, once it is worth it, as it is not ahead. */
		if (bino__links_ahead_take(
			    aw->ahead, level->key.dev, level->key.subvolid,
			    bino__ckey_identity_links(aw->groups, id)) == 1)
			identity->links = CKEY_LINKS_READ;
	}
	if (identity->links == CKEY_LINKS_UNREAD &&
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

/* One entry of the walk; a fatal error ends the walk. */
static enum bino_error audit_walk_entry(struct audit_walk *aw,
					struct bino_entry *entry)
{
	struct bino_audit_export *export = aw->export;
	int depth = bino_entry_depth(entry);
	bool is_dir = bino_entry_type(entry) == BINO_TYPE_DIR;
	struct audit_level *level;
	struct bino_stat st;
	uint64_t nlink = 1;
	enum bino_error err = BINO_OK;

	if (bino_entry_event(entry) == BINO_EVENT_ERROR) {
		if (aw->pass == 2)
			return BINO_OK;
		if (depth == 0 && export->entries == 0) {
			export->error = bino_entry_error(entry);
			export->error_errno = bino_entry_errno(entry);
		} else {
			export->unreadable++;
		}
		return BINO_OK;
	}
	if (bino_entry_visit(entry) != BINO_VISIT_PRE)
		return BINO_OK;
	if (ARRAY_RESERVE(aw->levels, aw->cap_levels, (size_t)depth + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	level = &aw->levels[depth];
	if (depth == 0) {
		level->client_fs = 0;
		level->flags = export->flags;
		export->n_client_fs = 1;
	} else {
		level->client_fs = level[-1].client_fs;
		level->flags = level[-1].flags;
	}
	level->key = bino_entry_key(entry);
	level->ino = level->key.ino;
	level->path_len = bino_entry_path_length(entry);
	level->probe = PROBE_NONE;

	if (depth > 0 && is_dir) {
		const struct bino_mount *mount = bino__nfsview_mounts_at(
			aw->submounts, bino_entry_path(entry));
		bool walk_in = true;

		if (mount)
			walk_in = audit_walk_mountpoint(aw, entry, mount, level,
							&err);
		else if ((bino_entry_flags(entry) & BINO_ENTRY_MOUNT_ROOT) &&
			 bino__mounts_from_file(aw->audit->server)) {
			audit_walk_unlisted(aw, entry, level, &err);
			walk_in = false;
		}
		if (!walk_in) {
			bino_walk_prune(aw->walk);
			if (err || !level->ino)
				return err;
			if (aw->pass == 2)
				return audit_find_entry(aw, entry, depth, true);
			export->entries++;
			return audit_walk_count(aw, entry, depth, true, 1);
		}
		if (err)
			return err;
	}
	if (aw->pass == 2)
		return audit_find_entry(aw, entry, depth, is_dir);
	/* Best effort, on btrfs: without it, entries are stat'ed. */
	if (depth == 0 && is_dir && level->key.subvolid && !aw->ahead &&
	    !aw->audit->no_tree_search &&
	    bino__links_ahead_create(bino_entry_path(entry), level->key.dev,
				     &aw->ahead) != 0)
		aw->ahead = NULL;
	export->entries++;
	audit_walk_progress(aw, false);
	if (!is_dir && audit_walk_needs_stat(aw, depth) &&
	    !(depth > 0 && level[-1].probe == PROBE_OK &&
	      audit_links_known(aw, entry, depth, &nlink))) {
		if (bino_entry_stat(entry, &st) != BINO_OK) {
			/* Vanished since it was read: not part of the tree. */
			if (depth > 0 && errno != ENOENT && errno != ESTALE)
				level[-1].probe = PROBE_FAILED;
			export->entries--;
			export->unreadable++;
			return BINO_OK;
		}
		if (depth > 0 && level[-1].probe == PROBE_NONE)
			level[-1].probe = PROBE_OK;
		nlink = st.nlink;
	}
	err = audit_note_device(aw, entry);
	if (!err && (depth == 0 || (bino_entry_flags(entry) &
				    BINO_ENTRY_SUBVOL_ROOT)))
		err = audit_note_subvol(aw, entry, level->client_fs, depth == 0);
	if (err)
		return err;
	return audit_walk_count(aw, entry, depth, is_dir, nlink);
}

/* Walk the path once: the first pass counts, the second finds. */
static enum bino_error audit_walk_pass(struct audit_walk *aw, int pass)
{
	const char *paths[] = { aw->export->path };
	struct bino_entry *entry;
	enum bino_error err;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	aw->pass = pass;
	err = bino_walk_create(paths, 1, 0, &aw->walk);
	if (err)
		return err;
	/* Read directories ahead on every core; same entries, same order. */
	if (cpus > 1)
		bino_walk_set_threads(aw->walk, cpus > 64 ? 64 : (int)cpus);
	while ((pass == 1 || aw->missing) &&
	       (err = bino_walk_next(aw->walk, &entry)) == BINO_OK) {
		err = audit_walk_entry(aw, entry);
		if (err)
			break;
	}
	if (err == BINO_ERROR_STOP_ITERATION)
		err = BINO_OK;
	bino_walk_destroy(aw->walk);
	aw->walk = NULL;
	return err;
}

static enum bino_error audit_walk_export(struct bino_audit *audit,
					 struct bino_audit_export *export)
{
	struct audit_walk aw;
	enum bino_error err;
	size_t i, n_client_fs;

	memset(&aw, 0, sizeof(aw));
	aw.audit = audit;
	aw.export = export;
	err = bino__nfsview_mounts_create(audit->server, export->path,
					  &aw.submounts);
	if (err)
		return err;
	err = bino__ckey_table_create(&aw.groups);
	if (err)
		goto out_submounts;
	err = audit_walk_pass(&aw, 1);
	bino__links_ahead_destroy(aw.ahead);
	aw.ahead = NULL;
	audit_walk_progress(&aw, true);
	if (err || export->error)
		goto out_groups;
	audit_find_mark(&aw);
	aw.missing = audit_find_missing(&aw);
	n_client_fs = export->n_client_fs;
	if (aw.missing)
		err = audit_walk_pass(&aw, 2);
	export->n_client_fs = n_client_fs;
	if (!err)
		err = audit_find_finish(&aw);
	if (!err)
		err = audit_finish_subvols(audit, export);
out_groups:
	for (i = 0; i < aw.n_events; i++)
		free(aw.events[i].path);
	free(aw.events);
	free(aw.waiting);
	bino__ckey_table_destroy(aw.groups);
out_submounts:
	bino__nfsview_mounts_destroy(aw.submounts);
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
		audit_export_free(audit->items[i]);
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
	size_t i, n = bino__nfsview_exports_count(audit->resolved);
	size_t covering = bino__nfsview_exports_covering(audit->resolved, resolved);
	const char *export_path;
	enum bino_error err;

	if (covering == SIZE_MAX)
		return BINO_OK;
	/* Which server mounts lie on the way decides what its clients see. */
	err = audit->server ? BINO_OK : audit_server_mounts(audit);
	if (err)
		return err;
	export_path = bino__nfsview_exports_path(audit->resolved, covering);
	for (i = 0; i < n; i++) {
		const struct bino_export *export =
			bino__nfsview_exports_get(audit->resolved, i);
		int flags = bino_export_flags(export);
		bool visible;

		if (strcmp(bino__nfsview_exports_path(audit->resolved, i),
			   export_path) != 0)
			continue;
		err = bino__nfsview_covered_flags(audit->resolved, audit->server,
						  export_path, resolved,
						  audit->flags, &flags, &visible);
		if (!err && visible)
			err = audit_add_target(audit, resolved, true, export,
					       flags, true);
		if (err)
			return err;
		*added = *added || visible;
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
		errno = resolve_errno;
		if (!seen)
			err = audit_add_target(audit, key, resolved != NULL,
					       export, bino_export_flags(export),
					       false);
		added = true;
	}
	if (!added && !err && resolved)
		err = audit_add_covered(audit, resolved, &added);
	errno = resolve_errno;
	if (!added && !err)
		err = audit_add_target(audit, key, resolved != NULL, NULL,
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
	size_t i, j, n;

	if (!audit || audit->ran)
		return BINO_ERROR_INVALID_ARGUMENT;
	err = audit_server_mounts(audit);
	if (err)
		return err;
	n = bino_mounts_count(audit->server);
	for (i = 0; i < n; i++) {
		const struct bino_mount *mount = bino_mounts_get(audit->server, i);
		bool seen = false;

		if (strcmp(bino_mount_fstype(mount), "btrfs") != 0)
			continue;
		for (j = 0; j < i && !seen; j++) {
			const struct bino_mount *earlier =
				bino_mounts_get(audit->server, j);

			seen = strcmp(bino_mount_fstype(earlier), "btrfs") == 0 &&
			       bino_mount_dev(earlier) == bino_mount_dev(mount);
		}
		if (seen)
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
		struct bino_audit_export *export = audit->items[i];

		if (export->error)
			continue;
		export->filesystem = bino__mounts_holding(audit->server,
							  export->path);
		if (!export->filesystem) {
			export->error = BINO_ERROR_NOT_FOUND;
			export->error_errno = 0;
			continue;
		}
		err = audit_walk_export(audit, export);
		if (err)
			return err;
	}
	return BINO_OK;
}

BINO_PUBLIC size_t bino_audit_count(const struct bino_audit *audit)
{
	if (!audit)
		return 0;
	return audit->count;
}

BINO_PUBLIC const struct bino_audit_export *
bino_audit_get(const struct bino_audit *audit, size_t index)
{
	if (!audit)
		return NULL;
	return index < audit->count ? audit->items[index] : NULL;
}

BINO_PUBLIC const char *
bino_audit_export_path(const struct bino_audit_export *export)
{
	if (!export)
		return NULL;
	return export->path;
}

BINO_PUBLIC const struct bino_export *
bino_audit_export_source(const struct bino_audit_export *export)
{
	if (!export)
		return NULL;
	return export->source;
}

BINO_PUBLIC bool
bino_audit_export_covered(const struct bino_audit_export *export)
{
	if (!export)
		return false;
	return export->covered;
}

BINO_PUBLIC int bino_audit_export_flags(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->flags;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_export_filesystem(const struct bino_audit_export *export)
{
	if (!export)
		return NULL;
	return export->filesystem;
}

BINO_PUBLIC enum bino_error
bino_audit_export_error(const struct bino_audit_export *export)
{
	if (!export)
		return BINO_ERROR_INVALID_ARGUMENT;
	return export->error;
}

BINO_PUBLIC int bino_audit_export_errno(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->error_errno;
}

BINO_PUBLIC uint64_t
bino_audit_export_entries(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->entries;
}

BINO_PUBLIC uint64_t
bino_audit_export_unreadable(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->unreadable;
}

BINO_PUBLIC uint64_t
bino_audit_export_collisions(const struct bino_audit_export *export,
			     enum bino_collision collision)
{
	if (!export)
		return 0;
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return export->collisions[collision];
}

BINO_PUBLIC size_t
bino_audit_export_client_fs_count(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->n_client_fs;
}

BINO_PUBLIC size_t
bino_audit_export_example_count(const struct bino_audit_export *export,
				enum bino_collision collision)
{
	if (!export)
		return 0;
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return export->n_examples[collision];
}

BINO_PUBLIC const struct bino_audit_example *
bino_audit_export_example(const struct bino_audit_export *export,
			  enum bino_collision collision, size_t index)
{
	if (!export)
		return NULL;
	if ((unsigned int)collision >= BINO_COLLISION_NR ||
	    index >= export->n_examples[collision])
		return NULL;
	return &export->examples[collision][index];
}

BINO_PUBLIC const char *
bino_audit_example_path(const struct bino_audit_example *example, int which)
{
	if (!example)
		return NULL;
	return which == 0 || which == 1 ? example->path[which] : NULL;
}

BINO_PUBLIC struct bino_key
bino_audit_example_key(const struct bino_audit_example *example, int which)
{
	struct bino_key none = { 0, 0, 0 };

	if (!example)
		return (struct bino_key){ 0 };

	return which == 0 || which == 1 ? example->key[which] : none;
}

BINO_PUBLIC size_t
bino_audit_example_client_fs(const struct bino_audit_example *example)
{
	if (!example)
		return 0;
	return example->client_fs;
}

static int compare_pairs(const void *a, const void *b)
{
	const struct bino_audit_pair *pa = a, *pb = b;

	if (pa->subvolid_a != pb->subvolid_a)
		return pa->subvolid_a < pb->subvolid_a ? -1 : 1;
	if (pa->subvolid_b != pb->subvolid_b)
		return pa->subvolid_b < pb->subvolid_b ? -1 : 1;
	return 0;
}

BINO_PUBLIC uint64_t bino_audit_pair_subvolid(const struct bino_audit_pair *pair,
					     int which)
{
	if (!pair)
		return 0;
	if (which == 0)
		return pair->subvolid_a;
	return which == 1 ? pair->subvolid_b : 0;
}

BINO_PUBLIC uint64_t
bino_audit_pair_collisions(const struct bino_audit_pair *pair,
			   enum bino_collision collision)
{
	if (!pair || (unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return pair->collisions[collision];
}

BINO_PUBLIC size_t
bino_audit_export_pair_count(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->n_pairs;
}

BINO_PUBLIC const struct bino_audit_pair *
bino_audit_export_pair(const struct bino_audit_export *export, size_t index)
{
	if (!export)
		return NULL;
	if (index >= export->n_pairs)
		return NULL;
	/* Sorted on first use: the results no longer change after the run. */
	if (index == 0)
		qsort(((struct bino_audit_export *)export)->pairs,
		      export->n_pairs, sizeof(*export->pairs), compare_pairs);
	return &export->pairs[index];
}

BINO_PUBLIC size_t
bino_audit_export_submount_count(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->n_submounts;
}

BINO_PUBLIC const struct bino_audit_submount *
bino_audit_export_submount(const struct bino_audit_export *export, size_t index)
{
	if (!export)
		return NULL;
	return index < export->n_submounts ? &export->submounts[index] : NULL;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_submount_mount(const struct bino_audit_submount *submount)
{
	if (!submount)
		return NULL;
	return submount->mount;
}

BINO_PUBLIC enum bino_submount_view
bino_audit_submount_view(const struct bino_audit_submount *submount)
{
	if (!submount)
		return 0;
	return submount->view;
}

BINO_PUBLIC size_t
bino_audit_submount_client_fs(const struct bino_audit_submount *submount)
{
	if (!submount)
		return 0;
	return submount->client_fs;
}

BINO_PUBLIC size_t
bino_audit_export_subvol_count(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->n_subvols;
}

BINO_PUBLIC const struct bino_audit_subvol *
bino_audit_export_subvol(const struct bino_audit_export *export, size_t index)
{
	if (!export)
		return NULL;
	return index < export->n_subvols ? &export->subvols[index] : NULL;
}

BINO_PUBLIC uint64_t bino_audit_subvol_id(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->id;
}

BINO_PUBLIC const char *
bino_audit_subvol_path(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	return subvol->path;
}

BINO_PUBLIC const char *
bino_audit_subvol_fs_path(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	return subvol->fs_path;
}

BINO_PUBLIC enum bino_error
bino_audit_subvol_info_error(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return BINO_ERROR_INVALID_ARGUMENT;
	return subvol->info_error;
}

BINO_PUBLIC int
bino_audit_subvol_info_errno(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->info_errno;
}

BINO_PUBLIC uint64_t
bino_audit_subvol_parent_id(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->info_errno ? subvol->walk_parent_id :
				    subvol->info.parent_id;
}

BINO_PUBLIC bool
bino_audit_subvol_read_only(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return false;
	return !subvol->info_errno && subvol->info.read_only;
}

BINO_PUBLIC const uint8_t *
bino_audit_subvol_uuid(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	return subvol->info_errno ? NULL : subvol->info.uuid;
}

BINO_PUBLIC const uint8_t *
bino_audit_subvol_parent_uuid(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	if (subvol->info_errno || !subvol->info.is_snapshot)
		return NULL;
	return subvol->info.parent_uuid;
}

BINO_PUBLIC uint64_t
bino_audit_subvol_snapshot_of(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->snapshot_of;
}

BINO_PUBLIC size_t
bino_audit_subvol_client_fs(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->client_fs;
}

BINO_PUBLIC size_t
bino_audit_subvol_mount_count(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->n_mounts;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_subvol_mount(const struct bino_audit_subvol *subvol, size_t index)
{
	if (!subvol)
		return NULL;
	return index < subvol->n_mounts ? subvol->mounts[index] : NULL;
}

BINO_PUBLIC size_t
bino_audit_export_device_count(const struct bino_audit_export *export)
{
	if (!export)
		return 0;
	return export->n_devices;
}

BINO_PUBLIC const struct bino_audit_device *
bino_audit_export_device(const struct bino_audit_export *export, size_t index)
{
	if (!export)
		return NULL;
	return index < export->n_devices ? export->devices[index] : NULL;
}

BINO_PUBLIC uint64_t
bino_audit_device_dev(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->dev;
}

BINO_PUBLIC enum bino_device_kind
bino_audit_device_kind(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->kind;
}

BINO_PUBLIC uint64_t
bino_audit_device_entries(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->entries;
}

BINO_PUBLIC const char *
bino_audit_device_path(const struct bino_audit_device *device)
{
	if (!device)
		return NULL;
	return device->path;
}

BINO_PUBLIC uint64_t
bino_audit_device_subvolid(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->subvolid;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_device_mount(const struct bino_audit_device *device)
{
	if (!device)
		return NULL;
	return device->mount;
}

/* ---- names ------------------------------------------------------------- */

static const char *const collision_names[] = {
	[BINO_COLLISION_LOOP] = "loop",
	[BINO_COLLISION_HARDLINK] = "hardlink",
	[BINO_COLLISION_PLAIN] = "plain",
};

BINO_PUBLIC const char *bino_collision_name(enum bino_collision collision)
{
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return "unknown";
	return collision_names[collision];
}

static const char *const loop_tools[] = {
	"find", "du", "ls -R", "chmod -R", "chown -R", "rm -r", NULL,
};
static const char *const hardlink_tools[] = {
	"tar", "rsync -H", "cp -a", "du", NULL,
};
static const char *const plain_tools[] = {
	"cp", "mv", "diff", "cmp", "find -samefile", NULL,
};
static const char *const no_tools[] = { NULL };

BINO_PUBLIC const char *const *bino_collision_tools(enum bino_collision collision)
{
	switch (collision) {
	case BINO_COLLISION_LOOP:
		return loop_tools;
	case BINO_COLLISION_HARDLINK:
		return hardlink_tools;
	case BINO_COLLISION_PLAIN:
		return plain_tools;
	default:
		return no_tools;
	}
}

static const char *const submount_view_names[] = {
	[BINO_SUBMOUNT_CROSSMNT] = "crossmnt",
	[BINO_SUBMOUNT_NOHIDE] = "nohide",
	[BINO_SUBMOUNT_NFSV4] = "nfsv4",
	[BINO_SUBMOUNT_SAME_CONTENT] = "same_content",
	[BINO_SUBMOUNT_HIDDEN] = "hidden",
	[BINO_SUBMOUNT_UNLISTED] = "unlisted",
};

BINO_PUBLIC const char *bino_submount_view_name(enum bino_submount_view view)
{
	size_t i = (size_t)view;

	if (i >= sizeof(submount_view_names) / sizeof(*submount_view_names))
		return "unknown";
	return submount_view_names[i];
}

static const char *const device_kind_names[] = {
	[BINO_DEVICE_LISTED] = "listed",
	[BINO_DEVICE_BTRFS_SUBVOL] = "btrfs_subvolume",
	[BINO_DEVICE_OVERLAY] = "overlayfs",
	[BINO_DEVICE_ANOMALY] = "anomaly",
};

BINO_PUBLIC const char *bino_device_kind_name(enum bino_device_kind kind)
{
	size_t i = (size_t)kind;

	if (i >= sizeof(device_kind_names) / sizeof(*device_kind_names))
		return "unknown";
	return device_kind_names[i];
}
