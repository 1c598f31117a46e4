/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A progress line on stderr for long runs: entries so far and their rate,
 * redrawn in place a few times a second, only when stderr is a terminal.
 */
#ifndef BTRFS_INO_PROGRESS_H
#define BTRFS_INO_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct progress {
	bool enabled;
	bool shown; /* a line is on the terminal now */
	const char *what; /* e.g. "walk" */
	struct timespec start;
	struct timespec last;
};

/* Enabled only if @wanted and stderr is a terminal. */
void progress_init(struct progress *progress, const char *what, bool wanted);

/* Count one more entry; redraws at most every 250 ms, after the first 500. */
void progress_update(struct progress *progress, uint64_t entries);

/* Erase the line, before a diagnostic or at the end; it comes back on update. */
void progress_clear(struct progress *progress);

#endif
