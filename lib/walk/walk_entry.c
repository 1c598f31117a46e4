/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the caller reads of an entry: its path, identity and kind, kept by
 * the walk (walk.c) until the next bino_walk_next(), and its stat, made on
 * demand here unless the walk or a helper made it already.
 */
#include "walk_state.h"

#include <errno.h>
#include <string.h>
#include <sys/sysmacros.h>

BINO_PUBLIC const char *bino_entry_path(const struct bino_entry *entry)
{
	if (!entry)
		return NULL;
	return entry->walk->path;
}

BINO_PUBLIC size_t bino_entry_path_length(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->walk->path_len;
}

BINO_PUBLIC const char *bino_entry_name(const struct bino_entry *entry)
{
	if (!entry)
		return NULL;
	return entry->walk->path + entry->name_offset;
}

BINO_PUBLIC int bino_entry_depth(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->depth;
}

BINO_PUBLIC enum bino_event bino_entry_event(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->event;
}

BINO_PUBLIC enum bino_visit bino_entry_visit(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->visit;
}

BINO_PUBLIC enum bino_type bino_entry_type(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->type;
}

BINO_PUBLIC int bino_entry_flags(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->id.flags;
}

BINO_PUBLIC struct bino_key bino_entry_key(const struct bino_entry *entry)
{
	if (!entry)
		return (struct bino_key){ 0 };
	return entry->id.key;
}

BINO_PUBLIC uint64_t bino_entry_st_dev(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->id.raw_dev;
}

BINO_PUBLIC enum bino_source bino_entry_source(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->id.source;
}

BINO_PUBLIC enum bino_error bino_entry_error(const struct bino_entry *entry)
{
	if (!entry)
		return BINO_ERROR_INVALID_ARGUMENT;
	return entry->error;
}

BINO_PUBLIC int bino_entry_errno(const struct bino_entry *entry)
{
	if (!entry)
		return 0;
	return entry->error_errno;
}

BINO_PUBLIC const char *
bino_entry_loop_ancestor(const struct bino_entry *entry)
{
	if (!entry)
		return NULL;
	return entry->event == BINO_EVENT_LOOP ? entry->loop_ancestor : NULL;
}

BINO_PUBLIC const struct bino_mount *
bino_entry_mount(const struct bino_entry *entry)
{
	if (!entry)
		return NULL;
	return entry->id.mount;
}

static struct bino_timestamp timestamp(const struct bino_kstatx_timestamp *ts)
{
	struct bino_timestamp result = { .sec = ts->tv_sec, .nsec = ts->tv_nsec };

	return result;
}

/*
 * Stat @entry now, from its directory (reopened if evicted), once: a
 * failure is kept.  BINO_OK or BINO_ERROR_STAT_FAILED, the cause in
 * *@errnum (ESTALE when the name is no longer the inode identified, EBADF
 * once the walk has no directory open).
 */
static enum bino_error entry_stat_now(struct bino_entry *entry, int *errnum)
{
	struct bino_walk *walk = entry->walk;
	int dirfd;

	if (entry->stat_failed) {
		*errnum = entry->stat_errno;
		return BINO_ERROR_STAT_FAILED;
	}
	if (!walk->top) {
		*errnum = EBADF;
		return BINO_ERROR_STAT_FAILED;
	}
	if (bino__walk_frame_fd(walk, walk->top, &dirfd, errnum) != BINO_OK)
		goto keep_failure;
	if (bino__statx(dirfd, bino_entry_name(entry),
			entry->followed ? 0 : AT_SYMLINK_NOFOLLOW,
			&entry->stx) != 0) {
		*errnum = errno;
		goto keep_failure;
	}
	if (entry->stx.ino != entry->id.key.ino) {
		*errnum = ESTALE; /* replaced since readdir: not the inode identified */
		goto keep_failure;
	}
	entry->have_stx = true;
	return BINO_OK;

keep_failure:
	entry->stat_failed = true;
	entry->stat_errno = *errnum;
	return BINO_ERROR_STAT_FAILED;
}

BINO_PUBLIC enum bino_error bino_entry_stat(struct bino_entry *entry,
					    struct bino_stat *ret)
{
	struct bino_walk *walk;
	const struct bino_kstatx *stx;
	int errnum;

	if (!entry || !ret || entry->event == BINO_EVENT_ERROR)
		return BINO_ERROR_INVALID_ARGUMENT;
	walk = entry->walk;
	stx = &entry->stx;
	if (entry->from_readdir && walk->top) {
		walk->top->n_stats_asked++;
		entry->from_readdir = false; /* counted once */
	}
	if (!entry->have_stx && entry_stat_now(entry, &errnum) != BINO_OK) {
		errno = errnum; /* the seam: errno for the caller */
		return BINO_ERROR_STAT_FAILED;
	}
	memset(ret, 0, sizeof(*ret));
	ret->mode = stx->mode;
	ret->uid = stx->uid;
	ret->gid = stx->gid;
	ret->nlink = stx->nlink;
	ret->size = stx->size;
	ret->blocks = stx->blocks;
	ret->rdev = makedev(stx->rdev_major, stx->rdev_minor);
	ret->mnt_id = (stx->mask & BINO_STATX_MNT_ID) ? stx->mnt_id : 0;
	ret->atime = timestamp(&stx->atime);
	ret->mtime = timestamp(&stx->mtime);
	ret->ctime = timestamp(&stx->ctime);
	ret->btime = timestamp(&stx->btime);
	ret->has_btime = stx->mask & BINO_STATX_BTIME;
	return BINO_OK;
}
