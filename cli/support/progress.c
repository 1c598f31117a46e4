/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The clock is read once every 4096 entries, so an update costs a
 * comparison: a walk lists a million entries a second when the cache is warm.
 */
#include "progress.h"

#include <inttypes.h>
#include <stdio.h>
#include <unistd.h>

#include "cli.h"

#define PROGRESS_CHECK_EVERY 4096
#define PROGRESS_FIRST_MS 500
#define PROGRESS_EVERY_MS 250

static int64_t elapsed_ms(const struct timespec *from, const struct timespec *to)
{
	return (int64_t)(to->tv_sec - from->tv_sec) * 1000 +
	       (to->tv_nsec - from->tv_nsec) / 1000000;
}

void progress_init(struct progress *progress, const char *what, bool wanted)
{
	progress->enabled = wanted && isatty(STDERR_FILENO);
	progress->shown = false;
	progress->what = what;
	clock_gettime(CLOCK_MONOTONIC, &progress->start);
	progress->last = progress->start;
}

void progress_update(struct progress *progress, uint64_t entries)
{
	struct timespec now;
	int64_t total_ms;

	if (!progress->enabled || entries % PROGRESS_CHECK_EVERY != 0)
		return;
	clock_gettime(CLOCK_MONOTONIC, &now);
	total_ms = elapsed_ms(&progress->start, &now);
	if (total_ms < PROGRESS_FIRST_MS ||
	    (progress->shown &&
	     elapsed_ms(&progress->last, &now) < PROGRESS_EVERY_MS))
		return;
	progress->last = now;
	progress->shown = true;
	fprintf(stderr, "\r\033[K%s: %s: %" PRIu64 " entries, %" PRIu64 "/s",
		PROGRAM_NAME, progress->what, entries,
		entries * 1000 / (uint64_t)total_ms);
	fflush(stderr);
}

void progress_clear(struct progress *progress)
{
	if (!progress->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	progress->shown = false;
}
