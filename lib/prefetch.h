/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Read-ahead of directories by helper threads (see prefetch.c). */
#ifndef BINO_PREFETCH_H
#define BINO_PREFETCH_H

#include <stddef.h>

struct bino_prefetch;

/* Start @workers threads (at least 1); 0, or -1 with errno. */
int bino__prefetch_create(int workers, struct bino_prefetch **ret);

/* Stop and join the threads and free the queue; NULL is accepted. */
void bino__prefetch_destroy(struct bino_prefetch *prefetch);

/*
 * Ask for the directory at @path (@len bytes, not NUL-terminated) to be read
 * ahead.  Never blocks: when the queue is full the request is dropped, as it
 * only ever saves time; while reads come from the cache, all but one in
 * PREFETCH_WARM_SAMPLE are.  Called from one thread only (the walk's).
 */
void bino__prefetch_add(struct bino_prefetch *prefetch, const char *path,
			size_t len);

#endif
