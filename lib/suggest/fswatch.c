/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Filesystem watches: whether the subvolumes of the btrfs filesystem
 * holding a path may have changed since the last look, for a keeper that
 * looks every second (btrfs-ino mount --watch) and must cost an idle server
 * nothing it would notice.
 *
 * Btrfs creates, deletes and renames a subvolume inside a transaction: it
 * adds or removes the ROOT_REF item (parent, ID, directory, name) and the
 * ROOT_BACKREF item of the subvolume in the root tree.  A look reads, and
 * compares with the last look's:
 *
 *  - the filesystem's generation (BTRFS_IOC_FS_INFO with
 *    BTRFS_FS_INFO_FLAG_GENERATION, Linux 5.10): the transaction running,
 *    or the last one committed; it grows when a transaction starts;
 *  - its count of committed transactions (the "commits" line of
 *    /sys/fs/btrfs/FSID/commit_stats, Linux 6.0): it grows when a commit
 *    ends, after all the subvolumes that transaction created or removed
 *    are in the trees (a snapshot is made while its transaction commits);
 *  - a digest of the ROOT_REF and ROOT_BACKREF items in the root tree's
 *    leaves written in that generation (BTRFS_IOC_TREE_SEARCH_V2 with
 *    min_transid: the kernel skips every subtree older than it, so the
 *    search reads the few leaves the transaction changed, not the whole
 *    tree; needs CAP_SYS_ADMIN).  A subvolume created inside a transaction
 *    that was running at the last look, which moves neither counter until
 *    that transaction is committed (up to a minute later), changes it.
 *
 * Any of the three moving says only that something happened: a commit
 * may have changed no subvolume (an atime, a file written; every 30 s on
 * a server in use), and a leaf of the window may hold links that did not
 * change.  So then, and only then, the look digests every ROOT_REF and
 * ROOT_BACKREF item of the root tree (the same search from transaction 0:
 * its leaves, some 40 of 16 KiB for 1,000 subvolumes, read from memory),
 * and a change is reported only when that digest differs: the set of
 * subvolumes, their parents, directories or names changed.  An idle
 * keeper then plans again for nothing, whatever writes the filesystem
 * sees, and looks cost a few system calls, whatever the number of
 * subvolumes or files.  And the filesystem's UUID, so that another
 * filesystem mounted on the path is a change too.  Without CAP_SYS_ADMIN
 * (no search), a change of generation or commit count is reported, and
 * once more SETTLE_SECONDS later, when the transaction it started has
 * been committed (every 30 s by default), as the count may be missing
 * (before Linux 6.0); with no counter at all, every look reports a
 * change.  The descriptor is closed after each look: an open one would
 * keep the filesystem from being unmounted (EBUSY).
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

/*
 * After a change of generation, without the commit count: how long until
 * its transaction is surely committed (btrfs's default commit interval,
 * 30 s, and a margin).
 */
#define SETTLE_SECONDS 35
/*
 * The search buffer: the leaves one transaction changed in the root tree
 * fit in one call, mostly (a leaf is 16 KiB by default).
 */
#define SEARCH_BUF_SIZE (64 * 1024)
/* FNV-1a, 64 bits: the digest of the items found. */
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* What one look at the filesystem saw. */
struct fs_look {
	uint8_t uuid[16];
	uint64_t generation; /* 0: the kernel does not say */
	uint64_t commits;
	bool has_commits; /* commits read from sysfs */
	uint64_t digest; /* of the subvolume links written in generation */
	bool has_digest; /* the root tree could be searched */
	uint64_t links; /* of every subvolume link (struct links_scan) */
	uint64_t known; /* of those of the IDs known before this look */
	bool lost; /* an added ID could not be kept (out of memory) */
};

struct bino_fswatch {
	char *path;
	struct btrfs_ioctl_search_args_v2 *search; /* SEARCH_BUF_SIZE of buf */
	struct fs_look last;
	struct timespec generation_changed; /* CLOCK_MONOTONIC */
	bool settled; /* reported once SETTLE_SECONDS after it */
	uint64_t commits_at_generation; /* when last.generation was first seen */
	uint64_t committed; /* a generation known committed, or 0 */
	uint64_t max_id; /* every subvolume ID up to it is known (seen or told) */
	uint64_t scanned; /* the generation the last look of either kind began in */
	uint64_t *added; /* the IDs the last look told of, ascending */
	size_t n_added, cap_added;
};

/* The "commits N" line of sysfs's commit_stats of the filesystem @uuid. */
static bool read_commits(const uint8_t uuid[16], uint64_t *ret)
{
	char path[96], text[256];
	const char *line;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path),
		 "/sys/fs/btrfs/%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x/commit_stats",
		 uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6],
		 uuid[7], uuid[8], uuid[9], uuid[10], uuid[11], uuid[12],
		 uuid[13], uuid[14], uuid[15]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		return false;
	text[len] = '\0';
	line = strstr(text, "commits ");
	return line && (line == text || line[-1] == '\n') &&
	       sscanf(line, "commits %" SCNu64, ret) == 1;
}

static uint64_t fnv(uint64_t hash, const void *data, size_t len)
{
	const unsigned char *bytes = data;
	size_t i;

	for (i = 0; i < len; i++)
		hash = (hash ^ bytes[i]) * FNV_PRIME;
	return hash;
}

/* Start the next search after the key (@objectid, @type, @offset). */
static bool search_after(struct btrfs_ioctl_search_key *key, uint64_t objectid,
			 uint32_t type, uint64_t offset)
{
	key->min_objectid = objectid;
	key->min_type = type;
	key->min_offset = offset + 1;
	if (offset < UINT64_MAX)
		return true;
	key->min_type = type + 1;
	if (type < UINT8_MAX)
		return true;
	key->min_type = 0;
	key->min_objectid = objectid + 1;
	return objectid < UINT64_MAX;
}

/* Called for each item of a root tree scan. */
typedef void scan_fn(const struct btrfs_ioctl_search_header *header,
		     const void *item, void *data);

/* The root tree items a scan visits: objectids and the oldest leaves. */
struct scan_range {
	uint64_t generation; /* leaves written in it or later (0: every leaf) */
	uint64_t min_id, max_id;
};

/*
 * Call @fn for each item of the root tree in @range.  False when the tree
 * cannot be searched (EPERM without CAP_SYS_ADMIN).
 */
static bool scan_root_tree(int fd, struct btrfs_ioctl_search_args_v2 *search,
			   struct scan_range range, scan_fn *fn, void *data)
{
	struct btrfs_ioctl_search_key *key = &search->key;
	struct btrfs_ioctl_search_header header;
	uint32_t i;
	size_t pos;

	*key = (struct btrfs_ioctl_search_key){
		.tree_id = BTRFS_ROOT_TREE_OBJECTID,
		.min_transid = range.generation, .max_transid = UINT64_MAX,
		.min_objectid = range.min_id, .max_objectid = range.max_id,
		.max_type = UINT8_MAX, .max_offset = UINT64_MAX,
	};
	do {
		key->nr_items = UINT32_MAX;
		search->buf_size = SEARCH_BUF_SIZE;
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH_V2, search) != 0)
			return false;
		if (key->nr_items == 0)
			break;
		for (i = 0, pos = 0; i < key->nr_items; i++) {
			memcpy(&header, search->buf + pos, sizeof(header));
			pos += sizeof(header);
			fn(&header, search->buf + pos, data);
			pos += header.len;
		}
	} while (search_after(key, header.objectid, header.type, header.offset));
	return true;
}

/* Fold the key and the item of a subvolume link into *@hash. */
static void digest_link(uint64_t *hash,
			const struct btrfs_ioctl_search_header *header,
			const void *item)
{
	/* The key and the item, not the leaf's transid. */
	*hash = fnv(*hash, &header->objectid, sizeof(header->objectid));
	*hash = fnv(*hash, &header->offset, sizeof(header->offset));
	*hash = fnv(*hash, &header->type, sizeof(header->type));
	*hash = fnv(*hash, item, header->len);
}

/* scan_fn: digest the ROOT_REF and ROOT_BACKREF items into *@data. */
static void digest_window(const struct btrfs_ioctl_search_header *header,
			  const void *item, void *data)
{
	if (header->type == BTRFS_ROOT_REF_KEY ||
	    header->type == BTRFS_ROOT_BACKREF_KEY)
		digest_link(data, header, item);
}

/*
 * What a scan of every link tells: each subvolume's one link is its
 * ROOT_BACKREF item (ID, parent, directory, name), keyed by its ID, so in
 * ID order; the digest of those up to the highest ID known before the
 * look (@known_max) is a prefix of the digest of all.  It differs from
 * the last look's (of all then) only when a known subvolume was deleted,
 * renamed or moved; an ID above @known_max is a subvolume created since
 * (IDs only grow while a filesystem is mounted).
 */
struct links_scan {
	struct bino_fswatch *watch;
	uint64_t known_max;
	uint64_t hash;
	uint64_t known; /* the digest up to known_max */
	bool past_known; /* known is taken */
	bool out_of_memory; /* an added ID could not be kept */
};

/* Keep @id as one the look tells of; false when out of memory. */
static bool added_keep(struct bino_fswatch *watch, uint64_t id)
{
	if (watch->n_added == watch->cap_added) {
		size_t cap = watch->cap_added ? 2 * watch->cap_added : 64;
		uint64_t *grown = reallocarray(watch->added, cap, sizeof(*grown));

		if (!grown)
			return false;
		watch->added = grown;
		watch->cap_added = cap;
	}
	watch->added[watch->n_added++] = id;
	return true;
}

/* scan_fn: a links_scan, and the IDs above known_max. */
static void links_item(const struct btrfs_ioctl_search_header *header,
		       const void *item, void *data)
{
	struct links_scan *scan = data;

	if (header->type != BTRFS_ROOT_BACKREF_KEY)
		return;
	if (header->objectid > scan->known_max) {
		if (!scan->past_known)
			scan->known = scan->hash;
		scan->past_known = true;
		if (!added_keep(scan->watch, header->objectid))
			scan->out_of_memory = true;
	}
	digest_link(&scan->hash, header, item);
}

/*
 * Scan every link of the root tree from @fd: the digest of all into
 * *@links, that of the known IDs into *@known, the IDs above them into
 * the watch's added list.  False when the tree cannot be searched.
 */
static bool links_digest(struct bino_fswatch *watch, int fd,
			 struct fs_look *look)
{
	struct links_scan scan = { .watch = watch, .known_max = watch->max_id,
				   .hash = FNV_OFFSET };

	watch->n_added = 0;
	if (!scan_root_tree(fd, watch->search,
			    (struct scan_range){ 0, 0, UINT64_MAX }, links_item,
			    &scan))
		return false;
	look->links = scan.hash;
	look->known = scan.past_known ? scan.known : scan.hash;
	/* Out of memory, the IDs are not all told: a change, not an addition. */
	look->lost = scan.out_of_memory;
	return true;
}

/* Whether anything that may move a subvolume happened between two looks. */
static bool something_happened(const struct fs_look *last,
			       const struct fs_look *now)
{
	return memcmp(now->uuid, last->uuid, sizeof(now->uuid)) != 0 ||
	       now->generation != last->generation ||
	       now->has_commits != last->has_commits ||
	       now->commits != last->commits ||
	       now->has_digest != last->has_digest ||
	       now->digest != last->digest;
}

/*
 * Open the filesystem holding @watch's path and read its UUID and
 * generation into @look (zeroed first).  The descriptor, or -1 with the
 * error in *@err: BINO_ERROR_OPEN_FAILED or BINO_ERROR_SUBVOL_INFO_FAILED
 * (ENOTTY: not btrfs), errno set.
 */
static int fs_open(const struct bino_fswatch *watch, struct fs_look *look,
		   enum bino_error *err)
{
	struct btrfs_ioctl_fs_info_args args;
	int fd;

	fd = open(watch->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		*err = BINO_ERROR_OPEN_FAILED;
		return -1;
	}
	memset(&args, 0, sizeof(args));
	args.flags = BTRFS_FS_INFO_FLAG_GENERATION;
	if (ioctl(fd, BTRFS_IOC_FS_INFO, &args) != 0) {
		int saved = errno;

		close(fd);
		errno = saved;
		*err = BINO_ERROR_SUBVOL_INFO_FAILED;
		return -1;
	}
	memset(look, 0, sizeof(*look));
	memcpy(look->uuid, args.fsid, sizeof(look->uuid));
	/* A kernel that does not know the flag clears it. */
	if (args.flags & BTRFS_FS_INFO_FLAG_GENERATION)
		look->generation = args.generation;
	return fd;
}

/*
 * Look at the filesystem holding @watch's path, against the look before
 * it (NULL: this is the first); the IDs added since into the watch's
 * list.  BINO_ERROR_OPEN_FAILED or BINO_ERROR_SUBVOL_INFO_FAILED (ENOTTY:
 * not btrfs), errno set.
 */
static enum bino_error fs_look(struct bino_fswatch *watch,
			       const struct fs_look *last, struct fs_look *look)
{
	enum bino_error err;
	int fd = fs_open(watch, look, &err);

	if (fd < 0)
		return err;
	watch->n_added = 0;
	watch->scanned = look->generation;
	/*
	 * The leaves of a committed generation change no more (a change
	 * starts the next transaction, and the generation moves): no search
	 * of them, which after a transaction that touched every subvolume's
	 * root item is the whole tree.
	 */
	if (look->generation && last && last->has_digest && watch->committed &&
	    look->generation == watch->committed) {
		look->digest = last->digest;
		look->has_digest = true;
	} else if (look->generation) {
		look->digest = FNV_OFFSET;
		look->has_digest = scan_root_tree(fd, watch->search,
						  (struct scan_range){ look->generation,
								       0, UINT64_MAX },
						  digest_window, &look->digest);
	}
	look->has_commits = read_commits(look->uuid, &look->commits);
	if (look->has_digest && last && !something_happened(last, look))
		look->links = look->known = last->links;
	else if (look->has_digest)
		look->has_digest = links_digest(watch, fd, look);
	close(fd);
	return BINO_OK;
}

/* Whether SETTLE_SECONDS have passed since @since. */
static bool settle_passed(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - since->tv_sec >= SETTLE_SECONDS;
}

/*
 * Without the digest, what the counters of @now say against @watch's last
 * look: a transaction started or committed, and SETTLE_SECONDS after a
 * start when the commit count is missing.
 */
static enum bino_fswatch_change compare_counters(struct bino_fswatch *watch,
						 const struct fs_look *now)
{
	const struct fs_look *last = &watch->last;

	if (now->generation != last->generation) {
		clock_gettime(CLOCK_MONOTONIC, &watch->generation_changed);
		watch->settled = false;
	}
	if (!now->has_commits && !now->generation)
		return BINO_FSWATCH_CHANGED;
	if (!now->has_commits && !watch->settled &&
	    settle_passed(&watch->generation_changed)) {
		watch->settled = true;
		return BINO_FSWATCH_CHANGED;
	}
	return something_happened(last, now) ? BINO_FSWATCH_CHANGED
					     : BINO_FSWATCH_UNCHANGED;
}

/* What @now says against @watch's last look (which it then becomes). */
static enum bino_fswatch_change fswatch_compare(struct bino_fswatch *watch,
						const struct fs_look *now)
{
	const struct fs_look *last = &watch->last;
	enum bino_fswatch_change change;

	if (memcmp(now->uuid, last->uuid, sizeof(now->uuid)) != 0 ||
	    now->has_digest != last->has_digest)
		change = BINO_FSWATCH_CHANGED;
	else if (now->has_digest && (now->known != last->links || now->lost))
		change = BINO_FSWATCH_CHANGED;
	else if (now->has_digest)
		change = watch->n_added ? BINO_FSWATCH_ADDED
					: BINO_FSWATCH_UNCHANGED;
	else
		change = compare_counters(watch, now);
	if (watch->n_added)
		watch->max_id = watch->added[watch->n_added - 1];
	/* The generation seen is committed once the commit count moves. */
	if (now->generation != last->generation ||
	    memcmp(now->uuid, last->uuid, sizeof(now->uuid)) != 0) {
		watch->commits_at_generation = now->commits;
		watch->committed = 0;
	} else if (now->has_commits &&
		   now->commits > watch->commits_at_generation) {
		watch->committed = now->generation;
	}
	watch->last = *now;
	return change;
}

BINO_PUBLIC enum bino_error bino_fswatch_create(const char *path, int flags,
						struct bino_fswatch **ret)
{
	struct bino_fswatch *watch;
	enum bino_error err;

	if (!path || !ret || flags != 0)
		return BINO_ERROR_INVALID_ARGUMENT;
	watch = calloc(1, sizeof(*watch));
	if (!watch)
		return BINO_ERROR_NO_MEMORY;
	watch->path = strdup(path);
	watch->search = malloc(sizeof(*watch->search) + SEARCH_BUF_SIZE);
	if (!watch->path || !watch->search) {
		bino_fswatch_destroy(watch);
		return BINO_ERROR_NO_MEMORY;
	}
	err = fs_look(watch, NULL, &watch->last);
	if (err) {
		bino_fswatch_destroy(watch);
		return err;
	}
	/* The first look is the baseline: nothing to settle, nothing added. */
	if (watch->n_added)
		watch->max_id = watch->added[watch->n_added - 1];
	watch->n_added = 0;
	watch->settled = true;
	watch->commits_at_generation = watch->last.commits;
	*ret = watch;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error bino_fswatch_check(struct bino_fswatch *watch,
					       enum bino_fswatch_change *ret)
{
	struct fs_look now;
	enum bino_error err;

	if (!watch || !ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	err = fs_look(watch, &watch->last, &now);
	if (err)
		return err;
	*ret = fswatch_compare(watch, &now);
	return BINO_OK;
}

/* scan_fn: keep the ID of each ROOT_BACKREF item above the known ones. */
static void added_item(const struct btrfs_ioctl_search_header *header,
		       const void *item, void *data)
{
	struct bino_fswatch *watch = data;

	(void)item;
	if (header->type == BTRFS_ROOT_BACKREF_KEY &&
	    header->objectid > watch->max_id)
		(void)added_keep(watch, header->objectid);
}

BINO_PUBLIC enum bino_error
bino_fswatch_check_added(struct bino_fswatch *watch,
			 enum bino_fswatch_change *ret)
{
	struct fs_look now;
	enum bino_error err;
	int fd;

	if (!watch || !ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	fd = fs_open(watch, &now, &err);
	if (fd < 0)
		return err;
	watch->n_added = 0;
	*ret = BINO_FSWATCH_CHANGED;
	if (memcmp(now.uuid, watch->last.uuid, sizeof(now.uuid)) == 0) {
		/*
		 * Only the keys above the highest ID known, in the leaves
		 * written since the last look began: the new subvolumes'
		 * items, whatever the number of the others.
		 */
		(void)scan_root_tree(fd, watch->search,
				     (struct scan_range){ watch->scanned,
							  watch->max_id + 1,
							  BTRFS_LAST_FREE_OBJECTID },
				     added_item, watch);
		watch->scanned = now.generation;
		*ret = watch->n_added ? BINO_FSWATCH_ADDED
				      : BINO_FSWATCH_UNCHANGED;
	}
	if (watch->n_added)
		watch->max_id = watch->added[watch->n_added - 1];
	close(fd);
	return BINO_OK;
}

BINO_PUBLIC size_t bino_fswatch_added_count(const struct bino_fswatch *watch)
{
	return watch ? watch->n_added : 0;
}

BINO_PUBLIC uint64_t bino_fswatch_added_id(const struct bino_fswatch *watch,
					   size_t index)
{
	return watch && index < watch->n_added ? watch->added[index] : 0;
}

BINO_PUBLIC const char *bino_fswatch_path(const struct bino_fswatch *watch)
{
	return watch ? watch->path : NULL;
}

BINO_PUBLIC void bino_fswatch_destroy(struct bino_fswatch *watch)
{
	if (!watch)
		return;
	free(watch->path);
	free(watch->search);
	free(watch->added);
	free(watch);
}
