/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Directories opened, stat'ed and read whole, by the walk or by helper threads (see dirread.c). */
#ifndef BINO_DIRREAD_H
#define BINO_DIRREAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "btrfsino.h"
#include "statx.h"

/* One directory entry as read: packed, 8-byte aligned, name NUL-ended. */
struct dir_record {
	uint64_t ino;
	uint8_t type;
	char name[];
};

/* How many records a directory read has, and of them subdirectories. */
struct dir_counts {
	size_t records;
	size_t dirs;
};

/* The size a record of @name_len bytes of name takes, padding included. */
static inline size_t bino__dir_record_size(size_t name_len)
{
	return (sizeof(struct dir_record) + name_len + 1 + 7) & ~(size_t)7;
}

/* The record at @offset of a buffer that bino__dir_read() filled. */
static inline const struct dir_record *bino__dir_record_at(const char *records,
							   size_t offset)
{
	return (const void *)(records + offset);
}

/* The offset of the record after the one at @offset. */
static inline size_t bino__dir_record_next(const char *records, size_t offset)
{
	return offset + bino__dir_record_size(
				strlen(bino__dir_record_at(records, offset)->name));
}

/*
 * Read the directory open at @fd whole into *@records (grown with
 * ARRAY_RESERVE, capacity *@cap, *@len bytes used), counting its records
 * and subdirectories (DT_DIR) into *@counts.  BINO_OK, or
 * BINO_ERROR_NO_MEMORY or BINO_ERROR_READDIR_FAILED with the errno in
 * *@errnum; what was read before an error is kept.
 */
BINO_WARN_UNUSED
enum bino_error bino__dir_read(int fd, char **records, size_t *len,
			       size_t *cap, struct dir_counts *counts,
			       int *errnum);

/*
 * One child directory to open (relative to @dirfd), stat and read whole:
 * what the walk would do when it meets it, done ahead.  The walk keeps
 * @dirfd open and @name valid until it takes the job back
 * (bino__dirread_finish() or _cancel()), and then owns the job and its
 * results (@fd, @records and @children, the jobs a helper gave the
 * directory's own subdirectories, whose @dirfd is @fd) until it gives it
 * back with bino__dirread_release().
 */
struct dirjob_request {
	int dirfd;
	const char *name;
	int depth; /* of the child, in the walk */
	size_t record_offset; /* of the child in its parent's records */
};

struct dirjob {
	/* The request. */
	int dirfd;
	const char *name;
	int depth; /* of the child, in the walk */
	bool by_helper; /* queued by a helper, not asked for by the walk */
	size_t record_offset; /* of the child in its parent's records */

	/* The results: @fd < 0 with @open_errno, else @stx (if @stat_errno is 0). */
	int fd;
	int open_errno;
	int stat_errno;
	struct bino_kstatx stx;
	char *records; /* read whole unless @read_errno */
	size_t records_len;
	size_t records_cap; /* kept with the job when it is reused */
	struct dir_counts counts; /* of the records */
	struct bino_kstatx *stats; /* per record, with config.stat_ahead */
	size_t n_stats; /* records stat'ed: all, or 0 */
	size_t stats_cap; /* kept with the job when it is reused */
	int read_errno;
	struct dirjob *children; /* in record order, linked by @later */
	size_t children_next; /* offset of the first record not given a job */

	/* The pool's: whether queued, running, done; the queue's links. */
	_Atomic int state; /* read without the lock while the walk spins */
	struct dirjob *prev;
	struct dirjob *next;

	/* The next job of the same parent (children, or the walk's frame). */
	struct dirjob *later;
};

/* How the pool works: its threads, its bound, how it opens directories. */
struct dirread_config {
	int helpers; /* at least 1 */
	int jobs_max; /* jobs out (submitted, not taken back) at most */
	int oflags; /* for openat() of every directory */
	int max_depth; /* no jobs for children deeper than this; -1: none */
	bool stat_ahead; /* stat entries too (stats[]) while the walk wants them */
};

/*
 * At most this many entries in a directory for its entries to be stat'ed
 * ahead: the stats of every job out are held at once.  A failed stat, or
 * a directory, has a zero mask.
 */
#define DIRREAD_STAT_AHEAD_MAX 128

struct bino_dirread;

/*
 * Whether the walk's caller now asks stats of most entries (with
 * config.stat_ahead; it starts true): the helpers stat them ahead only
 * then, as a stat nobody reads costs as much as one that is.
 */
void bino__dirread_want_stats(struct bino_dirread *pool, bool wanted);

/*
 * Start the helper threads: BINO_OK, BINO_ERROR_INVALID_ARGUMENT (fewer
 * than one helper or job), or BINO_ERROR_NO_MEMORY (memory or threads).
 */
BINO_WARN_UNUSED
enum bino_error bino__dirread_create(const struct dirread_config *config,
				     struct bino_dirread **ret);

/* Stop and join the threads; every job must have been taken back.  NULL is accepted. */
void bino__dirread_destroy(struct bino_dirread *pool);

/*
 * Queue a job for the directory @request->name below @request->dirfd
 * (copied into the job): right after @after (the
 * job of its previous sibling, or NULL) while that one is queued, else at
 * the front of the queue if the walk needs it @soon, else at the back.
 * NULL when @jobs_max jobs are out (or no memory): the walk then does it
 * itself.
 */
struct dirjob *bino__dirread_submit(struct bino_dirread *pool,
				    const struct dirjob_request *request,
				    struct dirjob *after, bool soon);

/*
 * Take @job back with its results: waits for the helper running it, or runs
 * it here if none has started it (the walk never waits on a queue).
 */
void bino__dirread_finish(struct bino_dirread *pool, struct dirjob *job);

/* Take back and free @job, its results and its children's, unread if still queued. */
void bino__dirread_cancel(struct bino_dirread *pool, struct dirjob *job);

/*
 * Give back a job taken back, with what of its results is left: its
 * children are cancelled first, then its fd closed; the pool keeps the job
 * and its records' buffer for the next (no malloc per directory, and no
 * free of another thread's memory, which contends for malloc's locks).
 */
void bino__dirread_release(struct bino_dirread *pool, struct dirjob *job);

#endif
