/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Directory read-ahead.  On a cold cache the walk waits on the disk for every
 * directory it reads and every subdirectory inode it opens, one at a time.
 * Helper threads read the directories the walk is about to enter (the
 * siblings still ahead of it) and stat their subdirectories, so the walk then
 * finds them in the page and inode caches.  The walk's output and order are
 * unchanged: it still reads everything itself, the helpers only fetch early.
 *
 * The queue is bounded and a full queue drops requests; the helpers never
 * follow symbolic links, trigger automounts or go deeper than they are told.
 *
 * On a warm cache read-ahead gains nothing and costs a second read of every
 * directory, so each helper times its reads and, while they come from the
 * cache, the walk queues only one request in PREFETCH_WARM_SAMPLE, for the
 * helpers to notice when they stop doing so.  The walk skips the others
 * before copying a path, taking the lock or waking a helper: on small
 * directories, a wake-up for every directory cost more than it saved.
 */
#include "prefetch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "getdents.h"

#define PREFETCH_QUEUE_MAX 4096
/* A directory read faster than this on average came from the cache. */
#define PREFETCH_WARM_NS 100000
#define PREFETCH_WARM_SAMPLE 16

struct bino_prefetch {
	pthread_mutex_t lock;
	pthread_cond_t ready;
	bool stopping;
	atomic_bool warm; /* the last read timed came from the cache */
	unsigned int skipped; /* requests while warm; the adding thread's */
	char *queue[PREFETCH_QUEUE_MAX]; /* a ring of malloc'ed paths */
	size_t head;
	size_t count;
	int n_threads;
	pthread_t threads[];
};

/* Read one directory and stat its subdirectories, discarding the results. */
static void prefetch_directory(const char *path)
{
	char buffer[32 * 1024] __attribute__((aligned(8)));
	struct bino_dirents dirents;
	const struct linux_dirent64 *dent;
	struct stat st;
	int fd;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK |
				O_CLOEXEC);
	if (fd < 0)
		return;
	bino__dirents_init(&dirents, fd, buffer, sizeof(buffer));
	while (bino__dirents_next(&dirents, &dent) > 0) {
		if (dent->d_type != DT_DIR || dent->d_name[0] == '.')
			continue;
		fstatat(fd, dent->d_name, &st,
			AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT);
	}
	close(fd);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *prefetch_worker(void *arg)
{
	struct bino_prefetch *prefetch = arg;
	/* Average time per directory read (a moving average, 1/8 weight). */
	uint64_t average_ns = PREFETCH_WARM_NS;

	for (;;) {
		uint64_t start_ns;
		char *path;

		pthread_mutex_lock(&prefetch->lock);
		while (!prefetch->stopping && prefetch->count == 0)
			pthread_cond_wait(&prefetch->ready, &prefetch->lock);
		if (prefetch->stopping) {
			pthread_mutex_unlock(&prefetch->lock);
			return NULL;
		}
		path = prefetch->queue[prefetch->head];
		prefetch->head = (prefetch->head + 1) % PREFETCH_QUEUE_MAX;
		prefetch->count--;
		pthread_mutex_unlock(&prefetch->lock);
		start_ns = monotonic_ns();
		prefetch_directory(path);
		average_ns = (average_ns * 7 + (monotonic_ns() - start_ns)) / 8;
		atomic_store_explicit(&prefetch->warm,
				      average_ns < PREFETCH_WARM_NS,
				      memory_order_relaxed);
		free(path);
	}
}

int bino__prefetch_create(int workers, struct bino_prefetch **ret)
{
	struct bino_prefetch *prefetch;
	int i, err;

	if (workers < 1) {
		errno = EINVAL;
		return -1;
	}
	prefetch = calloc(1, sizeof(*prefetch) +
				     (size_t)workers * sizeof(pthread_t));
	if (!prefetch)
		return -1;
	pthread_mutex_init(&prefetch->lock, NULL);
	pthread_cond_init(&prefetch->ready, NULL);
	atomic_init(&prefetch->warm, false);
	for (i = 0; i < workers; i++) {
		err = pthread_create(&prefetch->threads[i], NULL,
				     prefetch_worker, prefetch);
		if (err) {
			bino__prefetch_destroy(prefetch);
			errno = err;
			return -1;
		}
		prefetch->n_threads++;
	}
	*ret = prefetch;
	return 0;
}

void bino__prefetch_destroy(struct bino_prefetch *prefetch)
{
	int i;

	if (!prefetch)
		return;
	pthread_mutex_lock(&prefetch->lock);
	prefetch->stopping = true;
	pthread_cond_broadcast(&prefetch->ready);
	pthread_mutex_unlock(&prefetch->lock);
	for (i = 0; i < prefetch->n_threads; i++)
		pthread_join(prefetch->threads[i], NULL);
	while (prefetch->count > 0) {
		free(prefetch->queue[prefetch->head]);
		prefetch->head = (prefetch->head + 1) % PREFETCH_QUEUE_MAX;
		prefetch->count--;
	}
	pthread_cond_destroy(&prefetch->ready);
	pthread_mutex_destroy(&prefetch->lock);
	free(prefetch);
}

void bino__prefetch_add(struct bino_prefetch *prefetch, const char *path,
			size_t len)
{
	char *copy;

	/* A path open() cannot take is not worth queueing. */
	if (len >= PATH_MAX)
		return;
	if (atomic_load_explicit(&prefetch->warm, memory_order_relaxed) &&
	    ++prefetch->skipped % PREFETCH_WARM_SAMPLE != 0)
		return;
	copy = malloc(len + 1);
	if (!copy)
		return;
	memcpy(copy, path, len);
	copy[len] = '\0';
	pthread_mutex_lock(&prefetch->lock);
	if (prefetch->count == PREFETCH_QUEUE_MAX) {
		pthread_mutex_unlock(&prefetch->lock);
		free(copy);
		return;
	}
	prefetch->queue[(prefetch->head + prefetch->count) % PREFETCH_QUEUE_MAX] =
		copy;
	prefetch->count++;
	pthread_cond_signal(&prefetch->ready);
	pthread_mutex_unlock(&prefetch->lock);
}
