/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Directories read on helper threads.  Walking a tree is mostly three
 * syscalls per directory (openat, statx, getdents64), and on a cold cache or
 * an NFS client each of them may wait on the disk or the network.  The walk
 * (walk.c) hands the subdirectories of the directories it is in to this
 * pool as jobs; a helper opens, stats and reads each one whole, and when the
 * walk reaches that child it takes the results instead of making the calls.
 * The walk's output and its order are unchanged: only the syscalls moved.
 *
 * The helpers run ahead of the walk in its own order: a helper that has
 * read a directory queues its subdirectories at the front of the queue (the
 * walk, depth first, needs them before anything queued earlier), and takes
 * jobs from the front.  So the helpers read the tree in the walk's order,
 * up to jobs_max directories ahead of it, and the walk, on a warm cache, is
 * left its own work.  A job the walk reaches while still queued it runs
 * itself (it has caught up).  While a helper runs the one it needs, the walk
 * runs the jobs at the front of the queue as a helper would, then spins:
 * when it has little to do per entry (an audit in a subvolume whose keys
 * do not collide), it waited half the time, and the tree was read by one
 * thread.
 *
 * Every job out may hold an fd and a directory's records: jobs_max bounds
 * them, and the walk keeps a job's parent fd open until it takes it back.
 * Jobs and their buffers are reused, never freed by the other thread.
 *
 * With config.stat_ahead a helper also stats the entries of the small
 * directories it reads, while the walk's caller asks for stats and while
 * the helper is ahead (STAT_AHEAD_LEAD): when it is behind, the walk would
 * wait for stats it can make itself.
 */
#include "dirread.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "getdents.h"

#define DIRREAD_BUFFER_SIZE (64 * 1024)
/*
 * Memory: the records of the jobs a helper ran and the walk has not taken
 * back, at most this many bytes (then helpers wait: the walk reads alone
 * until it catches up), so that memory follows the largest directory, not
 * jobs_max of them; and SPARE_BUFFERS buffers kept for reuse, of at most
 * SPARE_BUFFER_MAX bytes each.  A job has buffers only once it runs.
 */
#define DONE_BYTES_MAX (1024 * 1024)
#define SPARE_BUFFER_MAX (64 * 1024)
#define SPARE_BUFFERS 16
/*
 * A helper stats entries ahead only while at least this many jobs it ran
 * wait for the walk: when it is not ahead, the walk would wait for those
 * stats, so the helper reads on and leaves them to the walk, which makes
 * the two share the calls.
 */
#define STAT_AHEAD_LEAD 4
/*
 * How long the walk spins for a job a helper is running, once none is left
 * queued for it to run meanwhile, before it sleeps: a directory takes tens
 * of microseconds, and a sleep and a wake-up cost both threads about as
 * much.
 */
#define FINISH_SPINS 4096
/* Subdirectories of one directory a helper queues at most (see below). */
#define CHILDREN_MAX 16

enum dirjob_state {
	DIRJOB_QUEUED,
	DIRJOB_RUNNING,
	DIRJOB_DONE,
};

struct bino_dirread {
	struct dirread_config config;
	atomic_bool stats_wanted; /* by the walk's caller, lately */
	pthread_mutex_t lock;
	pthread_cond_t queued; /* a job was queued, or stopping */
	pthread_cond_t done; /* a job a helper ran is done */
	bool stopping;
	struct dirjob *queue; /* the first to run; doubly linked */
	struct dirjob *queue_tail;
	int jobs_out; /* submitted and not taken back */
	int helper_jobs_out; /* of those, queued by helpers */
	int jobs_done; /* of those, run by a helper and not yet taken back */
	struct dirjob *spare; /* given back, for reuse; linked by @next */
	int n_spare; /* at most jobs_max */
	struct dirjob spare_buffers[SPARE_BUFFERS]; /* only their buffers */
	int n_spare_buffers;
	size_t done_bytes; /* records of the jobs done and not taken back */
	int idle; /* helpers waiting on @queued */
	int n_threads;
	pthread_t threads[];
};

static enum bino_error dir_append_record(char **records, size_t *len,
					 size_t *cap,
					 const struct linux_dirent64 *dent)
{
	size_t name_len = strlen(dent->d_name);
	size_t size = bino__dir_record_size(name_len);
	struct dir_record *record;

	if (size > SIZE_MAX - *len || ARRAY_RESERVE(*records, *cap, *len + size))
		return BINO_ERROR_NO_MEMORY;
	record = (struct dir_record *)(*records + *len);
	record->ino = dent->d_ino;
	record->type = dent->d_type;
	memcpy(record->name, dent->d_name, name_len + 1);
	*len += size;
	return BINO_OK;
}

enum bino_error bino__dir_read(int fd, char **records, size_t *len,
			       size_t *cap, struct dir_counts *counts,
			       int *errnum)
{
	char buffer[DIRREAD_BUFFER_SIZE] __attribute__((aligned(8)));
	struct bino_dirents dirents;
	const struct linux_dirent64 *dent;
	enum bino_dirents_next next;

	bino__dirents_init(&dirents, fd, buffer, sizeof(buffer));
	while ((next = bino__dirents_next(&dirents, &dent)) ==
	       BINO_DIRENTS_RECORD) {
		if (dir_append_record(records, len, cap, dent) != 0) {
			*errnum = ENOMEM;
			return BINO_ERROR_NO_MEMORY;
		}
		counts->records++;
		counts->dirs += dent->d_type == DT_DIR;
	}
	if (next == BINO_DIRENTS_FAILED) {
		*errnum = errno;
		return BINO_ERROR_READDIR_FAILED;
	}
	return BINO_OK;
}

/*
 * Stat every entry of a small directory other than subdirectories (which
 * the walk opens anyway), for bino_entry_stat() to answer without a call.
 */
static void dirjob_stat_entries(struct dirjob *job)
{
	size_t offset, i = 0;

	if (job->counts.records > DIRREAD_STAT_AHEAD_MAX ||
	    ARRAY_RESERVE(job->stats, job->stats_cap, job->counts.records))
		return;
	for (offset = 0; offset < job->records_len; i++) {
		const struct dir_record *record =
			bino__dir_record_at(job->records, offset);

		offset = bino__dir_record_next(job->records, offset);
		if (record->type == DT_DIR ||
		    bino__statx(job->fd, record->name, AT_SYMLINK_NOFOLLOW,
				&job->stats[i]) != 0)
			job->stats[i].mask = 0;
	}
	job->n_stats = job->counts.records;
}

/* Lend a job about to run the buffers of an earlier one; lock held. */
static void dirread_lend_buffers(struct bino_dirread *pool, struct dirjob *job)
{
	struct dirjob *kept;

	if (pool->n_spare_buffers == 0)
		return;
	kept = &pool->spare_buffers[--pool->n_spare_buffers];
	job->records = kept->records;
	job->records_cap = kept->records_cap;
	job->stats = kept->stats;
	job->stats_cap = kept->stats_cap;
}

/* The memory a job's buffers hold. */
static size_t dirjob_bytes(const struct dirjob *job)
{
	return job->records_cap + job->stats_cap * sizeof(*job->stats);
}

/* Open, stat and read the job's directory (and stat its entries). */
static void dirjob_run(struct dirjob *job, int oflags, bool stat_ahead)
{
	job->fd = openat(job->dirfd, job->name, oflags | O_CLOEXEC);
	if (job->fd < 0) {
		job->open_errno = errno;
		return;
	}
	if (bino__statx(job->fd, "", AT_EMPTY_PATH, &job->stx) != 0) {
		job->stat_errno = errno;
		return;
	}
	if (bino__dir_read(job->fd, &job->records, &job->records_len,
			   &job->records_cap, &job->counts,
			   &job->read_errno) != BINO_OK)
		; /* job->read_errno says why */
	else if (stat_ahead)
		dirjob_stat_entries(job);
}

/* Link @job into the queue after @prev (NULL: at the front); with the lock held. */
static void dirread_queue(struct bino_dirread *pool, struct dirjob *job,
			  struct dirjob *prev)
{
	job->state = DIRJOB_QUEUED;
	job->prev = prev;
	job->next = prev ? prev->next : pool->queue;
	if (job->next)
		job->next->prev = job;
	else
		pool->queue_tail = job;
	if (prev)
		prev->next = job;
	else
		pool->queue = job;
	/* A busy helper finds it without being woken. */
	if (pool->idle > 0)
		pthread_cond_signal(&pool->queued);
}

/* Unlink a queued job; with the lock held. */
static void dirread_unqueue(struct bino_dirread *pool, struct dirjob *job)
{
	assert(job->state == DIRJOB_QUEUED);
	if (job->prev)
		job->prev->next = job->next;
	else
		pool->queue = job->next;
	if (job->next)
		job->next->prev = job->prev;
	else
		pool->queue_tail = job->prev;
	job->prev = job->next = NULL;
}

/*
 * A new job, counted out; NULL at the bound or without memory.  Lock held.
 * Helpers may have half the bound out: the rest is for the directories the
 * walk asks for, which it needs before what helpers guess it will.
 */
static struct dirjob *dirread_new_job(struct bino_dirread *pool,
				      const struct dirjob_request *request,
				      bool by_helper)
{
	struct dirjob *job;

	if (pool->jobs_out >= pool->config.jobs_max ||
	    (by_helper && 2 * pool->helper_jobs_out >= pool->config.jobs_max))
		return NULL;
	if (pool->spare) {
		job = pool->spare;
		pool->spare = job->next;
		pool->n_spare--;
		memset(job, 0, sizeof(*job));
	} else {
		job = calloc(1, sizeof(*job));
		if (!job)
			return NULL;
	}
	job->dirfd = request->dirfd;
	job->name = request->name;
	job->depth = request->depth;
	job->record_offset = request->record_offset;
	job->fd = -1;
	job->by_helper = by_helper;
	pool->jobs_out++;
	pool->helper_jobs_out += by_helper;
	return job;
}

/*
 * Queue the first subdirectories of a directory a helper just read, at the
 * front in record order, as far as the bound allows and at most
 * CHILDREN_MAX: the walk asks for the others when it is in the directory
 * (walk_schedule()), so that a directory of many subdirectories does not
 * take the bound from the deeper ones the walk needs first; with the lock
 * held.
 */
static void dirread_queue_children(struct bino_dirread *pool,
				   struct dirjob *parent)
{
	struct dirjob *last = NULL;
	struct dirjob *child;
	size_t offset = 0;
	int n = 0;

	if (parent->fd < 0 || parent->stat_errno || parent->read_errno ||
	    (pool->config.max_depth >= 0 &&
	     parent->depth >= pool->config.max_depth))
		return;
	while (offset < parent->records_len) {
		const struct dir_record *record =
			bino__dir_record_at(parent->records, offset);
		size_t next = bino__dir_record_next(parent->records, offset);

		if (record->type == DT_DIR) {
			if (n++ == CHILDREN_MAX)
				break;
			struct dirjob_request request = {
				.dirfd = parent->fd,
				.name = record->name,
				.depth = parent->depth + 1,
				.record_offset = offset,
			};

			child = dirread_new_job(pool, &request, true);
			if (!child)
				break;
			if (last)
				last->later = child;
			else
				parent->children = child;
			last = child;
		}
		offset = next;
	}
	parent->children_next = offset;
	last = NULL;
	for (child = parent->children; child; child = child->later) {
		dirread_queue(pool, child, last);
		last = child;
	}
}

/*
 * Run the job at the front of the queue: a helper's work, which the walk
 * also does while it waits for a job a helper is running.  Lock held,
 * released while it runs.
 */
static void dirread_run_front(struct bino_dirread *pool)
{
	struct dirjob *job = pool->queue;
	bool stat_ahead;

	dirread_unqueue(pool, job);
	job->state = DIRJOB_RUNNING;
	dirread_lend_buffers(pool, job);
	stat_ahead = pool->config.stat_ahead &&
		     pool->jobs_done >= STAT_AHEAD_LEAD &&
		     atomic_load_explicit(&pool->stats_wanted,
					  memory_order_relaxed);
	pthread_mutex_unlock(&pool->lock);
	dirjob_run(job, pool->config.oflags, stat_ahead);
	pthread_mutex_lock(&pool->lock);
	dirread_queue_children(pool, job);
	job->state = DIRJOB_DONE;
	pool->jobs_done++;
	pool->done_bytes += dirjob_bytes(job);
	pthread_cond_broadcast(&pool->done);
}

static void *dirread_helper(void *arg)
{
	struct bino_dirread *pool = arg;

	pthread_mutex_lock(&pool->lock);
	for (;;) {
		/* Over the memory bound, a helper waits for the walk to catch up. */
		while (!pool->stopping &&
		       (!pool->queue || pool->done_bytes >= DONE_BYTES_MAX)) {
			pool->idle++;
			pthread_cond_wait(&pool->queued, &pool->lock);
			pool->idle--;
		}
		if (pool->stopping)
			break;
		dirread_run_front(pool);
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

enum bino_error bino__dirread_create(const struct dirread_config *config,
				     struct bino_dirread **ret)
{
	struct bino_dirread *pool;
	pthread_mutexattr_t attr;
	int i;

	if (config->helpers < 1 || config->jobs_max < 1)
		return BINO_ERROR_INVALID_ARGUMENT;
	pool = calloc(1, sizeof(*pool) +
				 (size_t)config->helpers * sizeof(pthread_t));
	if (!pool)
		return BINO_ERROR_NO_MEMORY;
	pool->config = *config;
	atomic_init(&pool->stats_wanted, true);
	pthread_mutexattr_init(&attr);
	/*
	 * The lock is held for a few list operations, and the walk and the
	 * helpers take it per directory: spinning a little on it is cheaper
	 * than the futex sleep and wake-up of a default mutex.
	 */
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&pool->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	pthread_cond_init(&pool->queued, NULL);
	pthread_cond_init(&pool->done, NULL);
	for (i = 0; i < config->helpers; i++) {
		if (pthread_create(&pool->threads[i], NULL, dirread_helper,
				   pool) != 0) {
			bino__dirread_destroy(pool);
			return BINO_ERROR_NO_MEMORY; /* EAGAIN: no thread to spare */
		}
		pool->n_threads++;
	}
	*ret = pool;
	return BINO_OK;
}

void bino__dirread_destroy(struct bino_dirread *pool)
{
	struct dirjob *job;
	int i;

	if (!pool)
		return;
	pthread_mutex_lock(&pool->lock);
	assert(!pool->queue && pool->jobs_out == 0);
	pool->stopping = true;
	pthread_cond_broadcast(&pool->queued);
	pthread_mutex_unlock(&pool->lock);
	for (i = 0; i < pool->n_threads; i++)
		pthread_join(pool->threads[i], NULL);
	while ((job = pool->spare)) {
		pool->spare = job->next;
		free(job);
	}
	while (pool->n_spare_buffers > 0) {
		job = &pool->spare_buffers[--pool->n_spare_buffers];
		free(job->stats);
		free(job->records);
	}
	pthread_cond_destroy(&pool->done);
	pthread_cond_destroy(&pool->queued);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

struct dirjob *bino__dirread_submit(struct bino_dirread *pool,
				    const struct dirjob_request *request,
				    struct dirjob *after, bool soon)
{
	struct dirjob *job;

	pthread_mutex_lock(&pool->lock);
	job = dirread_new_job(pool, request, false);
	if (job && after && after->state == DIRJOB_QUEUED)
		dirread_queue(pool, job, after);
	else if (job)
		dirread_queue(pool, job, soon ? NULL : pool->queue_tail);
	pthread_mutex_unlock(&pool->lock);
	return job;
}

/* Take @job back: unqueued (false) or done (true, after waiting); lock held. */
static bool dirread_take_back(struct bino_dirread *pool, struct dirjob *job)
{
	pool->jobs_out--;
	pool->helper_jobs_out -= job->by_helper;
	if (job->state == DIRJOB_QUEUED) {
		dirread_unqueue(pool, job);
		job->state = DIRJOB_DONE;
		dirread_lend_buffers(pool, job);
		return false;
	}
	while (job->state != DIRJOB_DONE)
		pthread_cond_wait(&pool->done, &pool->lock);
	pool->jobs_done--;
	pool->done_bytes -= dirjob_bytes(job);
	if (pool->idle > 0 && pool->queue &&
	    pool->done_bytes < DONE_BYTES_MAX &&
	    pool->done_bytes + dirjob_bytes(job) >= DONE_BYTES_MAX)
		pthread_cond_signal(&pool->queued);
	return true;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void bino__dirread_finish(struct bino_dirread *pool, struct dirjob *job)
{
	bool ran;
	int spins;

	pthread_mutex_lock(&pool->lock);
	while (job->state == DIRJOB_RUNNING && pool->queue &&
	       pool->done_bytes < DONE_BYTES_MAX)
		dirread_run_front(pool);
	pthread_mutex_unlock(&pool->lock);
	for (spins = 0; spins < FINISH_SPINS &&
			atomic_load_explicit(&job->state, memory_order_acquire) ==
				DIRJOB_RUNNING;
	     spins++)
		cpu_relax();
	pthread_mutex_lock(&pool->lock);
	ran = dirread_take_back(pool, job);
	pthread_mutex_unlock(&pool->lock);
	/* The walk caught up: it stats what it needs itself. */
	if (!ran)
		dirjob_run(job, pool->config.oflags, false);
}

void bino__dirread_release(struct bino_dirread *pool, struct dirjob *job)
{
	struct bino_kstatx *stats;
	struct dirjob *child;
	char *records;

	/* Their parent fd is the job's: before it is closed. */
	while ((child = job->children)) {
		job->children = child->later;
		bino__dirread_cancel(pool, child);
	}
	if (job->fd >= 0)
		close(job->fd);
	job->fd = -1;
	records = job->records;
	stats = job->stats;
	pthread_mutex_lock(&pool->lock);
	if (dirjob_bytes(job) <= SPARE_BUFFER_MAX &&
	    pool->n_spare_buffers < SPARE_BUFFERS && records) {
		struct dirjob *keep = &pool->spare_buffers[pool->n_spare_buffers++];

		keep->records = records;
		keep->records_cap = job->records_cap;
		keep->stats = stats;
		keep->stats_cap = job->stats_cap;
		records = NULL;
		stats = NULL;
	}
	job->next = pool->spare; /* from here another thread may reuse it */
	pool->spare = job;
	pool->n_spare++;
	pthread_mutex_unlock(&pool->lock);
	free(stats);
	free(records);
}

void bino__dirread_cancel(struct bino_dirread *pool, struct dirjob *job)
{
	pthread_mutex_lock(&pool->lock);
	dirread_take_back(pool, job);
	pthread_mutex_unlock(&pool->lock);
	bino__dirread_release(pool, job);
}

void bino__dirread_want_stats(struct bino_dirread *pool, bool wanted)
{
	atomic_store_explicit(&pool->stats_wanted, wanted, memory_order_relaxed);
}
