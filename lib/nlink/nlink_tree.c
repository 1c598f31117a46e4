/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Which inodes of a btrfs subvolume have more than one name, read for the
 * whole subvolume at once from its tree (BTRFS_IOC_TREE_SEARCH_V2, which
 * needs CAP_SYS_ADMIN) instead of a stat per file.
 *
 * The names are counted from the inode back-references (INODE_REF items,
 * one per parent directory, holding one or more names; INODE_EXTREF items
 * when a directory holds too many names of one inode): that is what nlink
 * counts for a non-directory, and btrfs check holds the two equal.  The
 * references are read, not the inode item's nlink field, because btrfs
 * inserts and deletes references in the tree at once while it updates inode
 * items lazily (delayed inodes, written at the next commit): a link made a
 * moment ago is already among the references.
 *
 * bino__links_ahead: a helper thread that reads the subvolumes below a path
 * this way, in the walk's order, while the audit walks them on another
 * core.  Until a subvolume is read the audit stats the entries that need
 * nlink, as a walk meets few in most subvolumes (those whose keys it has
 * not met before); once many needed it, the audit waits for the read,
 * reads the subvolume itself if the helper has not reached it, or reads
 * the next one meanwhile if the helper is on it (bino__links_ahead_take()),
 * so that the two threads share the reading.
 * What was read is handed over, so that it outlives the helper.
 * Where a subvolume's directories hold many entries each (about 20 or
 * more), counting their names (below) costs less than the tree, which
 * copies a few items per entry: then root counts them too.
 *
 * Without CAP_SYS_ADMIN (an audit whose guesses of nlink from the walk's
 * own names could not stand, audit_nlink_names.c) the helper counts names by
 * reading the subvolume's directories instead (nlink_scan.c), and reads only
 * the subvolumes whose keys surely collide: inode numbers cannot be probed,
 * but a snapshot shares nearly all of its source's, so a subvolume is read
 * when its source, a snapshot of it or another snapshot of its source was
 * listed before it.  Copies share them too (every subvolume numbers its
 * inodes from 257) with nothing to say so: once the caller asks for a
 * subvolume no relation named (its entries needed so many stats), the
 * helper reads every subvolume listed after it as well.
 */
#include "nlink_tree.h"

#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <linux/capability.h>
#include <linux/btrfs_tree.h>
#include <pthread.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "creds.h"
#include "nlink_scan.h"
#include "subvol.h"

#define SEARCH_BUFFER_SIZE (256 * 1024)
/*
 * With CAP_SYS_ADMIN a subvolume's names are counted, not its tree read,
 * when at most one of this many of its inodes is a directory
 * (ahead_scan_is_cheaper()), as probed in so many runs of so many
 * consecutive inode numbers.
 */
#define SCAN_INODES_PER_DIR 20
#define SCAN_PROBE_RUNS 16
#define SCAN_PROBE_RUN_LENGTH 16
#define SCAN_PROBE_BUFFER_SIZE (32 * 1024)

/* The names in one reference item of @type, or 0 if malformed. */
static uint64_t ref_names(uint32_t type, const uint8_t *item, uint32_t len)
{
	size_t fixed = type == BTRFS_INODE_REF_KEY ?
			       sizeof(struct btrfs_inode_ref) :
			       sizeof(struct btrfs_inode_extref);
	size_t len_at = fixed - sizeof(uint16_t); /* name_len ends both */
	uint64_t names = 0;
	uint32_t at = 0;

	while (len - at >= fixed) {
		uint16_t name_len;

		memcpy(&name_len, item + at + len_at, sizeof(name_len));
		name_len = le16toh(name_len);
		if (len - at - fixed < name_len)
			return 0;
		at += fixed + name_len;
		names++;
	}
	return at == len ? names : 0;
}

/*
 * The search of every item of subvolume @subvolid's inodes.  The range is
 * one of whole keys (objectid, type, offset), so every item between is
 * returned; only references are read.
 */
static void multilinked_search_init(struct btrfs_ioctl_search_key *key,
				    uint64_t subvolid)
{
	key->tree_id = subvolid;
	key->min_objectid = BTRFS_FIRST_FREE_OBJECTID;
	key->max_objectid = BTRFS_LAST_FREE_OBJECTID;
	key->min_type = 0;
	key->max_type = 255; /* types are 8 bits */
	key->min_offset = 0;
	key->max_offset = (uint64_t)-1;
	key->min_transid = 0;
	key->max_transid = (uint64_t)-1;
}

/* Go on after @last, the last key returned; false past the last inode. */
static bool search_after(struct btrfs_ioctl_search_key *key,
			 const struct btrfs_ioctl_search_header *last)
{
	key->min_objectid = last->objectid;
	key->min_type = last->type;
	key->min_offset = last->offset + 1;
	if (last->offset != (uint64_t)-1)
		return true;
	key->min_offset = 0;
	key->min_type = last->type + 1;
	if (last->type < 255)
		return true;
	key->min_type = 0;
	if (last->objectid == BTRFS_LAST_FREE_OBJECTID)
		return false;
	key->min_objectid = last->objectid + 1;
	return true;
}

/*
 * Called for each inode number with two names or more; anything but
 * BINO_OK stops the search and is returned by it (the cause in *@errnum).
 */
typedef enum bino_error multilinked_fn(uint64_t ino, void *data, int *errnum);

/* The inode whose names are counted, and whom to tell of those with two. */
struct multilinked_count {
	multilinked_fn *fn;
	void *data;
	uint64_t ino, names;
};

/* The inode counted is passed: tell of it if it has two names or more. */
static enum bino_error multilinked_done(const struct multilinked_count *count,
					int *errnum)
{
	if (count->names < 2)
		return BINO_OK;
	return count->fn(count->ino, count->data, errnum);
}

/*
 * Count the names in the items of one search's answer @args, calling the
 * function for each inode left behind with two or more; @last: the last
 * item's header.
 */
static enum bino_error
multilinked_items(struct multilinked_count *count,
		  const struct btrfs_ioctl_search_args_v2 *args,
		  struct btrfs_ioctl_search_header *last, int *errnum)
{
	enum bino_error err;
	size_t at = 0;
	uint32_t i;

	for (i = 0; i < args->key.nr_items; i++) {
		memcpy(last, args->buf + at, sizeof(*last));
		at += sizeof(*last);
		if (last->objectid != count->ino) {
			err = multilinked_done(count, errnum);
			if (err)
				return err;
			count->ino = last->objectid;
			count->names = 0;
		}
		if (last->type == BTRFS_INODE_REF_KEY ||
		    last->type == BTRFS_INODE_EXTREF_KEY)
			count->names += ref_names(last->type, args->buf + at,
						  last->len);
		at += last->len;
	}
	return BINO_OK;
}

/*
 * Call @fn for every inode of subvolume @subvolid, of the btrfs that @fd is
 * on, that has more than one name, in ascending order.  Needs CAP_SYS_ADMIN.
 * @stop, if not NULL, is read (atomically) between batches: once true, the
 * search ends with BINO_ERROR_STOP_ITERATION (ECANCELED).  A failed search
 * is BINO_ERROR_SUBVOL_INFO_FAILED, the cause in *@errnum (EPERM
 * unprivileged, ENOTTY off btrfs); else what @fn returned.
 */
static enum bino_error btrfs_multilinked(int fd, uint64_t subvolid,
					 const bool *stop, multilinked_fn *fn,
					 void *data, int *errnum)
{
	struct multilinked_count count = { .fn = fn, .data = data };
	struct btrfs_ioctl_search_args_v2 *args;
	struct btrfs_ioctl_search_header last;
	enum bino_error err = BINO_OK;

	*errnum = 0;
	args = calloc(1, sizeof(*args) + SEARCH_BUFFER_SIZE);
	if (!args) {
		*errnum = ENOMEM;
		return BINO_ERROR_NO_MEMORY;
	}
	multilinked_search_init(&args->key, subvolid);
	while (!err) {
		if (stop && __atomic_load_n(stop, __ATOMIC_RELAXED)) {
			*errnum = ECANCELED;
			err = BINO_ERROR_STOP_ITERATION;
			break;
		}
		args->key.nr_items = (uint32_t)-1;
		args->buf_size = SEARCH_BUFFER_SIZE;
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH_V2, args) < 0) {
			*errnum = errno;
			err = BINO_ERROR_SUBVOL_INFO_FAILED;
			break;
		}
		if (args->key.nr_items == 0)
			break;
		err = multilinked_items(&count, args, &last, errnum);
		if (!err && !search_after(&args->key, &last))
			break;
	}
	if (!err)
		err = multilinked_done(&count, errnum);
	free(args);
	return err;
}

/*
 * Whether subvolume @subvolid holds an item of an inode number from @ino up
 * (to the last one): a search for one item.  An item too big for the small
 * buffer is one found (EOVERFLOW).  A thin wrapper of one ioctl: 0, or -1
 * with its errno.
 */
static int has_inode_from(int fd, uint64_t subvolid, uint64_t ino, bool *ret)
{
	struct {
		struct btrfs_ioctl_search_args_v2 args;
		uint8_t buf[256];
	} search = { 0 };

	search.args.key.tree_id = subvolid;
	search.args.key.min_objectid = ino;
	search.args.key.max_objectid = BTRFS_LAST_FREE_OBJECTID;
	search.args.key.max_type = 255;
	search.args.key.max_offset = (uint64_t)-1;
	search.args.key.max_transid = (uint64_t)-1;
	search.args.key.nr_items = 1;
	search.args.buf_size = sizeof(search.buf);
	if (ioctl(fd, BTRFS_IOC_TREE_SEARCH_V2, &search.args) < 0) {
		if (errno != EOVERFLOW)
			return -1;
		*ret = true;
		return 0;
	}
	*ret = search.args.key.nr_items > 0;
	return 0;
}

/*
 * The highest inode number (objectid of an item, up to the last free one)
 * of subvolume @subvolid, of the btrfs @fd is on (a tree search failed:
 * BINO_ERROR_SUBVOL_INFO_FAILED).
 */
static enum bino_error highest_inode(int fd, uint64_t subvolid, uint64_t *ret)
{
	uint64_t low = BTRFS_FIRST_FREE_OBJECTID, high, mid;
	bool found;

	/*
	 * Double until past the last, then halve the gap: two searches per
	 * bit of the answer (about 30 for the 520k inodes of a subvolume).
	 */
	for (high = 2 * low;; high = high > UINT64_MAX / 2 ? UINT64_MAX : 2 * high) {
		if (high > BTRFS_LAST_FREE_OBJECTID) {
			high = BTRFS_LAST_FREE_OBJECTID + 1;
			break;
		}
		if (has_inode_from(fd, subvolid, high, &found) != 0)
			return BINO_ERROR_SUBVOL_INFO_FAILED;
		if (!found)
			break;
		low = high;
	}
	/* An item from @low up, none from @high up. */
	while (high - low > 1) {
		mid = low + (high - low) / 2;
		if (has_inode_from(fd, subvolid, mid, &found) != 0)
			return BINO_ERROR_SUBVOL_INFO_FAILED;
		if (found)
			low = mid;
		else
			high = mid;
	}
	*ret = low;
	return BINO_OK;
}

/* ---- reading ahead ------------------------------------------------------ */

enum ahead_state {
	AHEAD_PENDING,
	AHEAD_READING,
	AHEAD_READY,
	/*
	 * Taken by the caller, or the read failed, or not worth reading: few
	 * of its inode numbers can be met before (ahead_worth_reading()), or,
	 * scanning, it is no snapshot of one listed before.
	 */
	AHEAD_SKIPPED,
};

struct ahead_subvol {
	uint64_t id;
	enum ahead_state state;
	struct inoset linked;
	char *path; /* relative to the listing's subvolume root */
	uint8_t uuid[16];
	uint8_t parent_uuid[16]; /* all zero: not a snapshot */
	/* Its source or another snapshot of it was listed before it. */
	bool snapshot_related;
	uint64_t highest; /* its highest inode number; 0: not probed yet */
};

struct bino__links_ahead {
	int fd; /* the root of the listing's subvolume */
	uint64_t dev;
	bool scan; /* counting names in directories, not reading trees */
	/*
	 * Scanning, the helper reads every subvolume listed from here on: one
	 * before it needed so many stats that the caller asked for it.
	 */
	size_t scan_from;
	/*
	 * In listing order; fixed once the thread starts (both threads hold
	 * pointers into it).
	 */
	struct ahead_subvol *subvols;
	size_t n_subvols, cap_subvols;
	pthread_t thread;
	/* A subvolume is read when at least this many of its keys may collide. */
	uint64_t min_shared;
	bool started;
	bool stop; /* atomic: read by btrfs_multilinked() unlocked */
	pthread_mutex_t lock;
	pthread_cond_t changed;
};

static bool uuid_is_zero(const uint8_t uuid[16])
{
	static const uint8_t zero[16];

	return memcmp(uuid, zero, sizeof(zero)) == 0;
}

/* Whether @a and @b are a subvolume and its snapshot, or snapshots of one. */
static bool ahead_snapshot_related(const struct ahead_subvol *a,
				   const struct ahead_subvol *b)
{
	return (!uuid_is_zero(b->parent_uuid) &&
		memcmp(b->parent_uuid, a->uuid, 16) == 0) ||
	       (!uuid_is_zero(a->parent_uuid) &&
		(memcmp(a->parent_uuid, b->uuid, 16) == 0 ||
		 memcmp(a->parent_uuid, b->parent_uuid, 16) == 0));
}

/* A bino__subvol_list_fn: @info joins the subvolumes to read. */
static enum bino_error ahead_list_one(const char *path,
				      const struct bino__subvol_info *info,
				      void *data)
{
	struct bino__links_ahead *ahead = data;
	struct ahead_subvol *subvol;
	size_t i;

	assert(!ahead->started);
	if (ARRAY_RESERVE(ahead->subvols, ahead->cap_subvols,
			  ahead->n_subvols + 1))
		return BINO_ERROR_NO_MEMORY;
	subvol = &ahead->subvols[ahead->n_subvols];
	memset(subvol, 0, sizeof(*subvol));
	subvol->id = info->id;
	memcpy(subvol->uuid, info->uuid, 16);
	memcpy(subvol->parent_uuid, info->parent_uuid, 16);
	subvol->path = strdup(path);
	if (!subvol->path)
		return BINO_ERROR_NO_MEMORY;
	for (i = 0; i < ahead->n_subvols && !subvol->snapshot_related; i++)
		subvol->snapshot_related =
			ahead_snapshot_related(&ahead->subvols[i], subvol);
	ahead->n_subvols++;
	return BINO_OK;
}

/* A multilinked_fn adding to the struct inoset @data. */
static enum bino_error links_add(uint64_t ino, void *data, int *errnum)
{
	if (bino__inoset_add(data, ino) == INOSET_NO_MEMORY) {
		*errnum = ENOMEM;
		return BINO_ERROR_NO_MEMORY;
	}
	return BINO_OK;
}

enum bino_error bino__btrfs_multilinked_set(int fd, uint64_t subvolid,
					    struct inoset *set, int *errnum)
{
	uint64_t fd_subvolid;
	enum bino_error err;

	if (bino__subvolid_ioctl(fd, &fd_subvolid) != 0) {
		*errnum = errno;
		return BINO_ERROR_SUBVOLID_FAILED;
	}
	if (fd_subvolid != subvolid) {
		*errnum = EXDEV;
		return BINO_ERROR_INVALID_ARGUMENT;
	}
	err = btrfs_multilinked(fd, subvolid, NULL, links_add, set, errnum);
	if (err)
		bino__inoset_clear(set); /* what the failed read added */
	return err;
}

/*
 * @subvol's root, found by the listing's path and checked to be the one
 * listed: an fd, or -1 with errno, as openat(2).
 */
static int ahead_open(const struct bino__links_ahead *ahead,
		      const struct ahead_subvol *subvol)
{
	uint64_t id;
	int fd;

	fd = openat(ahead->fd, subvol->path,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (bino__subvolid_ioctl(fd, &id) == 0) {
		if (id == subvol->id)
			return fd;
		errno = EXDEV; /* renamed since it was listed */
	}
	close(fd);
	return -1;
}

/*
 * Count into @inodes and @dirs the inode items of subvolume @subvolid
 * whose numbers run from @ino for SCAN_PROBE_RUN_LENGTH, as far as one
 * search of @args's buffer returns them (a failed search:
 * BINO_ERROR_SUBVOL_INFO_FAILED).
 */
static enum bino_error probe_run(int fd, uint64_t subvolid, uint64_t ino,
		     struct btrfs_ioctl_search_args_v2 *args, uint64_t *inodes,
		     uint64_t *dirs)
{
	struct btrfs_ioctl_search_header header;
	size_t at = 0;
	uint32_t i;

	memset(&args->key, 0, sizeof(args->key));
	args->key.tree_id = subvolid;
	args->key.min_objectid = ino;
	args->key.max_objectid = ino + SCAN_PROBE_RUN_LENGTH - 1;
	args->key.max_type = 255;
	args->key.max_offset = (uint64_t)-1;
	args->key.max_transid = (uint64_t)-1;
	args->key.nr_items = (uint32_t)-1;
	args->buf_size = SCAN_PROBE_BUFFER_SIZE;
	if (ioctl(fd, BTRFS_IOC_TREE_SEARCH_V2, args) < 0)
		/* one item too big: none */
		return errno == EOVERFLOW ? BINO_OK :
					    BINO_ERROR_SUBVOL_INFO_FAILED;
	for (i = 0; i < args->key.nr_items; i++) {
		uint32_t mode;

		memcpy(&header, args->buf + at, sizeof(header));
		at += sizeof(header);
		if (header.type == BTRFS_INODE_ITEM_KEY &&
		    header.len >= sizeof(struct btrfs_inode_item)) {
			memcpy(&mode,
			       args->buf + at +
				       offsetof(struct btrfs_inode_item, mode),
			       sizeof(mode));
			(*inodes)++;
			if (S_ISDIR(le32toh(mode)))
				(*dirs)++;
		}
		at += header.len;
	}
	return BINO_OK;
}

/*
 * Whether counting the names in the directories of subvolume @subvolid,
 * whose inode numbers end at @highest, costs less than reading its tree.
 * A tree read copies every item, a few per entry, whatever the
 * directories; a scan pays an open, a stat and a close per directory on
 * top of its entries.  Measured as root on audits of a subvolume and its
 * snapshot (200k to 1M files), scan against tree: 0.62 of the time with
 * 100 entries per directory, 0.80 with 50, 0.95 with 25, 1.05 to 1.07
 * with 12 (bench/run.sh's wide, small and 1+1 shapes).  Entries per
 * directory are about inodes per directory, which runs of inode items
 * spread over the subvolume's numbers tell in a few searches (a
 * directory's first entries are numbered next to it, so a single run, or
 * the first directories read, would mostly see the top of the tree).
 */
static bool ahead_scan_is_cheaper(int fd, uint64_t subvolid, uint64_t highest)
{
	struct btrfs_ioctl_search_args_v2 *args;
	uint64_t span, step, inodes = 0, dirs = 0;
	unsigned int run;

	if (highest < BTRFS_FIRST_FREE_OBJECTID)
		return false;
	args = malloc(sizeof(*args) + SCAN_PROBE_BUFFER_SIZE);
	if (!args)
		return false;
	span = highest - BTRFS_FIRST_FREE_OBJECTID + 1;
	step = span / SCAN_PROBE_RUNS;
	if (step < SCAN_PROBE_RUN_LENGTH)
		step = SCAN_PROBE_RUN_LENGTH;
	for (run = 0; run < SCAN_PROBE_RUNS; run++) {
		uint64_t ino = BTRFS_FIRST_FREE_OBJECTID + run * step;

		if (ino > highest ||
		    probe_run(fd, subvolid, ino, args, &inodes, &dirs) != 0)
			break;
	}
	free(args);
	return inodes > 0 && inodes >= SCAN_INODES_PER_DIR * dirs;
}

/*
 * Learn @subvol's inodes with several names into @linked: with
 * CAP_SYS_ADMIN from its tree unless its directories are large enough for
 * counting their names to cost less; without it, by counting.  A count
 * that fails, as when a mount hides names, leaves the
 * subvolume to the caller: it reads the tree itself, or stats.
 */
static enum bino_error ahead_read_links(struct bino__links_ahead *ahead,
					const struct ahead_subvol *subvol,
					uint64_t highest, struct inoset *linked)
{
	enum bino_error err;
	int fd, errnum;

	if (!ahead->scan &&
	    !ahead_scan_is_cheaper(ahead->fd, subvol->id, highest)) {
		err = btrfs_multilinked(ahead->fd, subvol->id, &ahead->stop,
					links_add, linked, &errnum);
		/* Denied the tree search: denied every other subvolume's too. */
		if (err && (errnum == EPERM || errnum == EACCES))
			__atomic_store_n(&ahead->stop, true, __ATOMIC_RELAXED);
		return err;
	}
	fd = ahead_open(ahead, subvol);
	if (fd < 0)
		return BINO_ERROR_OPEN_FAILED;
	err = bino__linkscan_set(fd, &ahead->stop, linked, &errnum);
	close(fd);
	return err;
}

/*
 * Read @subvol, PENDING, with ahead->lock held (released meanwhile); the
 * helper thread and the caller both read this way.
 */
static void ahead_read(struct bino__links_ahead *ahead,
		       struct ahead_subvol *subvol)
{
	struct inoset linked = { 0 };
	uint64_t highest = subvol->highest;
	int ret;

	subvol->state = AHEAD_READING;
	pthread_mutex_unlock(&ahead->lock);
	if (!ahead->scan && !highest &&
	    highest_inode(ahead->fd, subvol->id, &highest) != BINO_OK)
		highest = 0; /* then read the tree */
	ret = ahead_read_links(ahead, subvol, highest, &linked);
	pthread_mutex_lock(&ahead->lock);
	if (ret == 0) {
		subvol->linked = linked;
		subvol->state = AHEAD_READY;
	} else {
		bino__inoset_clear(&linked);
		subvol->state = AHEAD_SKIPPED;
	}
	pthread_cond_broadcast(&ahead->changed);
}

/*
 * Whether the audit will need to know the inodes with several names of
 * subvolume @id, whose inode numbers end at @highest, when those walked
 * before it end at @highest_before: only its keys met before need nlink,
 * and inode numbers are dense from the first, so at most the numbers the
 * two ranges share.  The first subvolume walked, and one of a subvolume
 * and its snapshot, is not worth reading: the reading costs as much as a
 * walk, and the few stats it saves nothing.
 */
static bool ahead_worth_reading(const struct bino__links_ahead *ahead,
				uint64_t highest, uint64_t highest_before)
{
	uint64_t shared_end = highest < highest_before ? highest : highest_before;

	return shared_end >= BTRFS_FIRST_FREE_OBJECTID &&
	       shared_end - BTRFS_FIRST_FREE_OBJECTID + 1 >= ahead->min_shared;
}

/*
 * The first subvolume from @from on, in listing order, still to be read;
 * scanning, only those the helper is to read: a snapshot related to one
 * listed before, or any subvolume after one whose keys proved to collide
 * (scan_from).  Lock held.
 */
static struct ahead_subvol *ahead_next_pending(struct bino__links_ahead *ahead,
					       size_t from)
{
	size_t i;

	for (i = from; i < ahead->n_subvols; i++) {
		struct ahead_subvol *subvol = &ahead->subvols[i];

		if (subvol->state == AHEAD_PENDING &&
		    (!ahead->scan || subvol->snapshot_related ||
		     i >= ahead->scan_from))
			return subvol;
	}
	return NULL;
}

/*
 * The helper, scanning: read the subvolumes ahead_next_pending() names,
 * and wait for more to be named until stopped.
 */
static void ahead_run_scan(struct bino__links_ahead *ahead)
{
	struct ahead_subvol *subvol;

	pthread_mutex_lock(&ahead->lock);
	while (!__atomic_load_n(&ahead->stop, __ATOMIC_RELAXED)) {
		subvol = ahead_next_pending(ahead, 0);
		if (subvol)
			ahead_read(ahead, subvol);
		else
			pthread_cond_wait(&ahead->changed, &ahead->lock);
	}
	pthread_mutex_unlock(&ahead->lock);
}

/*
 * The helper: read the subvolumes in listing order (the walk's, mostly),
 * skipping those the caller read or took and those not worth reading.
 */
static void *ahead_run(void *data)
{
	struct bino__links_ahead *ahead = data;
	uint64_t highest, highest_before = 0;
	struct ahead_subvol *subvol;
	size_t i;

	if (ahead->scan) {
		ahead_run_scan(ahead);
		return NULL;
	}
	pthread_mutex_lock(&ahead->lock);
	for (i = 0; i < ahead->n_subvols &&
		    !__atomic_load_n(&ahead->stop, __ATOMIC_RELAXED);
	     i++) {
		subvol = &ahead->subvols[i];
		pthread_mutex_unlock(&ahead->lock);
		if (highest_inode(ahead->fd, subvol->id, &highest) != 0)
			highest = BTRFS_LAST_FREE_OBJECTID; /* read it, to know */
		pthread_mutex_lock(&ahead->lock);
		subvol->highest = highest;
		if (subvol->state == AHEAD_PENDING &&
		    !ahead_worth_reading(ahead, highest, highest_before))
			subvol->state = AHEAD_SKIPPED;
		if (subvol->state == AHEAD_PENDING)
			ahead_read(ahead, subvol);
		if (highest > highest_before)
			highest_before = highest;
	}
	pthread_mutex_unlock(&ahead->lock);
	return NULL;
}

enum bino_error bino__links_ahead_create(const char *path, uint64_t dev,
					 uint64_t min_shared,
					 struct bino__links_ahead **ret)
{
	struct bino__links_ahead *ahead = calloc(1, sizeof(*ahead));
	struct bino__subvol_info own;
	enum bino_error err = BINO_ERROR_OPEN_FAILED;
	size_t i;
	int errnum;

	if (!ahead)
		return BINO_ERROR_NO_MEMORY;
	ahead->dev = dev;
	ahead->min_shared = min_shared;
	ahead->scan = !bino__btrfs_can_search_trees();
	ahead->scan_from = SIZE_MAX;
	ahead->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
	if (ahead->fd < 0)
		goto out_free;
	err = bino__subvol_info_fd(ahead->fd, &own, &errnum);
	if (err)
		goto out_close;
	err = ahead_list_one(".", &own, ahead);
	if (!err)
		err = bino__subvol_list(path, false, ahead_list_one, ahead,
					&errnum);
	if (err)
		goto out_close;
	pthread_mutex_init(&ahead->lock, NULL);
	pthread_cond_init(&ahead->changed, NULL);
	if (pthread_create(&ahead->thread, NULL, ahead_run, ahead) == 0)
		ahead->started = true;
	*ret = ahead;
	return BINO_OK;

out_close:
	close(ahead->fd);
out_free:
	for (i = 0; i < ahead->n_subvols; i++)
		free(ahead->subvols[i].path);
	free(ahead->subvols);
	free(ahead);
	return err;
}

void bino__links_ahead_destroy(struct bino__links_ahead *ahead)
{
	size_t i;

	if (!ahead)
		return;
	if (ahead->started) {
		/* A read under way stops at its next batch or directory. */
		pthread_mutex_lock(&ahead->lock);
		__atomic_store_n(&ahead->stop, true, __ATOMIC_RELAXED);
		pthread_cond_broadcast(&ahead->changed);
		pthread_mutex_unlock(&ahead->lock);
		pthread_join(ahead->thread, NULL);
	}
	pthread_mutex_destroy(&ahead->lock);
	pthread_cond_destroy(&ahead->changed);
	for (i = 0; i < ahead->n_subvols; i++) {
		bino__inoset_clear(&ahead->subvols[i].linked);
		free(ahead->subvols[i].path);
	}
	free(ahead->subvols);
	close(ahead->fd);
	free(ahead);
}

enum links_ahead_taken bino__links_ahead_take(struct bino__links_ahead *ahead,
					      uint64_t dev, uint64_t subvolid,
					      bool wait, struct inoset *ret)
{
	enum links_ahead_taken taken = LINKS_AHEAD_NOT_READ;
	struct ahead_subvol *subvol = NULL;
	size_t i;

	if (dev != ahead->dev)
		return LINKS_AHEAD_NOT_LISTED;
	for (i = 0; i < ahead->n_subvols && !subvol; i++) {
		if (ahead->subvols[i].id == subvolid)
			subvol = &ahead->subvols[i];
	}
	if (!subvol)
		return LINKS_AHEAD_NOT_LISTED;
	pthread_mutex_lock(&ahead->lock);
	if (!wait && (subvol->state == AHEAD_PENDING ||
		      subvol->state == AHEAD_READING)) {
		pthread_mutex_unlock(&ahead->lock);
		return LINKS_AHEAD_NOT_YET;
	}
	/*
	 * Scanning, a subvolume no snapshot relation named has keys that
	 * collide after all: those listed after it are likely copies too, the
	 * helper is to read them ahead.
	 */
	if (ahead->scan && subvol->state == AHEAD_PENDING &&
	    !subvol->snapshot_related &&
	    ahead->scan_from > (size_t)(subvol - ahead->subvols) + 1) {
		ahead->scan_from = (size_t)(subvol - ahead->subvols) + 1;
		pthread_cond_broadcast(&ahead->changed);
	}
	/* The helper is elsewhere: read it here rather than wait for it. */
	if (subvol->state == AHEAD_PENDING)
		ahead_read(ahead, subvol);
	/*
	 * Being read by the helper, which the caller has caught up with: read
	 * the next subvolume meanwhile rather than wait, so that the two share
	 * the reading.
	 */
	while (subvol->state == AHEAD_READING) {
		struct ahead_subvol *next = NULL;

		if (!__atomic_load_n(&ahead->stop, __ATOMIC_RELAXED))
			next = ahead_next_pending(
				ahead, (size_t)(subvol - ahead->subvols) + 1);
		if (next)
			ahead_read(ahead, next);
		else
			pthread_cond_wait(&ahead->changed, &ahead->lock);
	}
	if (subvol->state == AHEAD_READY) {
		assert(ret->n_parts == 0);
		*ret = subvol->linked;
		memset(&subvol->linked, 0, sizeof(subvol->linked));
		subvol->state = AHEAD_SKIPPED;
		taken = LINKS_AHEAD_TAKEN;
	}
	pthread_mutex_unlock(&ahead->lock);
	return taken;
}

bool bino__btrfs_can_search_trees(void)
{
	return bino__capable(CAP_SYS_ADMIN);
}
