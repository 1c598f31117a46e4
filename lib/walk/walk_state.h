/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The walk's state, private to the files that make the walk: walk.c (the
 * traversal), walk_ahead.c (its use of the helper threads) and walk_entry.c (what
 * the caller reads of an entry).  Nothing else includes it.
 */
#ifndef BINO_WALK_STATE_H
#define BINO_WALK_STATE_H

#include "internal.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "dirread.h"
#include "identity.h"
#include "statx.h"

/* A directory being read: one per level of the walk, child to parent. */
struct dir_frame {
	struct dir_frame *parent; /* NULL at depth 0 */
	int fd; /* -1 while evicted */
	char *name; /* relative to the parent; the start path at depth 0 */
	bool followed; /* reached through a symbolic link */
	size_t path_len; /* of its path in walk->path */
	size_t name_offset; /* of its name in walk->path */
	int depth;
	struct bino_identity id; /* children inherit it; loops compare to it */
	struct bino_kstatx stx; /* for the post-order visit and reopening */
	bool stat_children; /* d_ino or d_type cannot be trusted here */
	char *records; /* its entries, read whole: struct dir_record */
	struct dirjob *job; /* the helper's job that read them, or NULL */
	size_t records_len;
	size_t next_record; /* offset of the next child in records */
	size_t next_index; /* its index: job->stats[] are by index */
	size_t n_from_readdir; /* children identified from readdir */
	size_t n_stats_asked; /* of those, how many the caller stat'ed */
	size_t next_submit; /* offset of the next child to consider for a job */
	struct dirjob *jobs; /* its children's jobs out, in record order */
	int n_jobs; /* how many */
	int jobs_cap; /* how many it may have (0: not yet set, walk_ahead.c) */
	struct dirjob *jobs_tail;
};

/* The entry returned to the caller; its path is walk->path. */
struct bino_entry {
	struct bino_walk *walk;
	size_t name_offset; /* of the name in walk->path */
	int depth;
	enum bino_event event;
	enum bino_visit visit;
	enum bino_type type;
	struct bino_identity id;
	enum bino_error error; /* for BINO_EVENT_ERROR and uncertain ids */
	int error_errno;
	const char *loop_ancestor; /* walk->ancestor_path, for a loop */
	bool have_stx; /* stx is filled (else bino_entry_stat() stats) */
	struct bino_kstatx stx;
	bool followed; /* reached through a symbolic link */
	bool stat_failed; /* bino_entry_stat() failed once: do not retry */
	int stat_errno; /* and why, given again to each later call */
	bool from_readdir; /* identified from readdir: a child of walk->top */
};

/* What the next bino_walk_next() owes for the entry just returned. */
enum walk_after {
	AFTER_NOTHING,
	AFTER_ENTER, /* walk->pending_fd is the directory to read */
	AFTER_ERROR, /* report walk->pending_error, then maybe POST */
	AFTER_POST, /* visit the directory just returned post-order */
	AFTER_POST_SAVED, /* the same, for walk->saved_entry */
};

/* The walk's state, passed first to every walk_* helper. */
struct bino_walk {
	/* What the caller asked for. */
	int flags; /* enum bino_walk_flags */
	int max_depth; /* -1: no limit */
	bool started; /* settings are refused once true */
	char **start_paths;
	size_t n_start_paths;
	size_t next_start; /* index of the start path to walk next */
	int threads;
	struct bino_dirread *pool; /* NULL with one thread */
	struct bino_identifier identifier; /* its mount tables, its sources */

	/* Where the walk is. */
	struct dir_frame *top; /* the directory being read; NULL between starts */
	struct bino_identity start_id; /* for XDEV and SAME_SUBVOL */
	int open_fds; /* frame fds and pending_fd, kept within fd_budget */
	int fd_budget;

	/* The current entry's path, and a loop's ancestor's (grown, never shrunk). */
	char *path;
	size_t path_len;
	size_t path_cap;
	char *ancestor_path;
	size_t ancestor_cap;

	/* The entry returned, and what the next call owes for it. */
	struct bino_entry entry;
	enum walk_after after;
	bool pruned; /* bino_walk_prune() since the entry was returned */
	int pending_fd; /* AFTER_ENTER: the directory, opened */
	struct bino_kstatx pending_stx;
	struct dirjob *pending_job; /* a helper read it: its records, children */
	enum bino_error pending_error; /* AFTER_ERROR: what to report */
	int pending_errno;
	bool post_after_error; /* AFTER_ERROR: then visit it post-order */
	struct bino_entry saved_entry; /* a directory whose error came between */
};

static inline int dir_open_flags(bool follow)
{
	return O_RDONLY | O_DIRECTORY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW);
}

static inline bool want_descent(const struct bino_walk *walk, int depth)
{
	return walk->max_depth < 0 || depth < walk->max_depth;
}

static inline const struct dir_record *frame_record(const struct dir_frame *frame,
						    size_t offset)
{
	return bino__dir_record_at(frame->records, offset);
}

/* The offset of the record after the one at @offset. */
static inline size_t frame_record_next(const struct dir_frame *frame,
				       size_t offset)
{
	return bino__dir_record_next(frame->records, offset);
}

/*
 * walk.c: the fd of @frame into *@ret, reopened if it was evicted.  BINO_OK,
 * or BINO_ERROR_NO_MEMORY, _OPEN_FAILED or _CHANGED_DURING_WALK (ESTALE: not
 * the same directory) with the cause in *@errnum.
 */
BINO_WARN_UNUSED
enum bino_error bino__walk_frame_fd(struct bino_walk *walk,
				    struct dir_frame *frame, int *ret,
				    int *errnum);

/* walk_ahead.c: start the helper threads if asked for and fds allow. */
void bino__walk_start_helpers(struct bino_walk *walk);
/* walk_ahead.c: hand the helpers the subdirectories ahead of the walk. */
void bino__walk_schedule(struct bino_walk *walk);
/* walk_ahead.c: the top frame's job for its child at @offset, or NULL. */
struct dirjob *bino__walk_take_job(struct bino_walk *walk, size_t offset);
/* walk_ahead.c: give up every job out (EMFILE); whether there was one. */
bool bino__walk_cancel_jobs(struct bino_walk *walk);
/* walk_ahead.c: a helper's lstat of the child @record, the @index-th, or NULL. */
const struct bino_kstatx *bino__frame_stat_ahead(const struct dir_frame *frame,
						 size_t index,
						 const struct dir_record *record);

#endif
