/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The walk's use of its helper threads (the pool is dirread.c): which
 * directories to hand them and when, taking their results back in the
 * walk's order, giving them up under fd pressure, and the stats they made
 * ahead.  Why the bounds are what they are is said at each; the rule over
 * them all is that the walk needs its directories in depth-first order, so
 * what the helpers hold should be what the walk reaches next.
 */
#include "walk_state.h"

#include <dirent.h>

/*
 * Jobs out per helper thread, and in all; each may hold an fd and a
 * directory.  Below JOBS_MIN_FDS of fd budget the walk reads alone.
 */
#define JOBS_PER_HELPER 128
#define JOBS_MAX 128
#define JOBS_MIN_FDS 64
/* How many frames below the top are looked at for children to read. */
#define SCHEDULE_LEVELS 8
/*
 * Jobs a frame may have out at first.  A child that holds subdirectories
 * has helpers read below it, and its next sibling is needed only after all
 * that: the frame keeps to this.  Each child without subdirectories
 * doubles it, up to the bound, as then the walk needs the next siblings
 * soon.  Without the cap, a directory of many subdirectories filled the
 * bound with children read long before the walk needed them.
 */
#define FRAME_JOBS_FIRST 2

/*
 * The helper threads, if asked for and the fd budget leaves room for jobs;
 * without them the walk makes every call itself, as it only saves time.
 */
void bino__walk_start_helpers(struct bino_walk *walk)
{
	struct dirread_config config = {
		.helpers = walk->threads - 1,
		.jobs_max = walk->fd_budget / 4,
		.oflags = dir_open_flags(walk->flags & BINO_WALK_FOLLOW_ALL),
		.max_depth = walk->max_depth,
		.stat_ahead = walk->flags & BINO_WALK_STAT_AHEAD,
	};

	if (config.helpers < 1 || walk->fd_budget < JOBS_MIN_FDS)
		return;
	if (config.jobs_max > JOBS_MAX)
		config.jobs_max = JOBS_MAX;
	if (config.jobs_max > JOBS_PER_HELPER * config.helpers)
		config.jobs_max = JOBS_PER_HELPER * config.helpers;
	if (config.jobs_max < 1 ||
	    bino__dirread_create(&config, &walk->pool) != BINO_OK) {
		walk->pool = NULL;
		return;
	}
	/*
	 * Each job out may hold an fd, and pin its parent's (a frame with jobs
	 * out is not evicted): the frames keep to the rest.
	 */
	walk->fd_budget -= 2 * config.jobs_max;
}

/*
 * Hand the pool the subdirectories ahead of the walk, those of the top frame
 * first, while jobs may be out.  Only children the walk will open: DT_DIR,
 * within the depth limit; a frame whose fd was evicted has none read ahead.
 */
void bino__walk_schedule(struct bino_walk *walk)
{
	struct dir_frame *frame = walk->top;
	bool soon = true;
	int levels;

	for (levels = 0; frame && levels < SCHEDULE_LEVELS;
	     levels++, frame = frame->parent) {
		if (frame->fd < 0 || !want_descent(walk, frame->depth + 1))
			continue;
		if (frame->jobs_cap == 0)
			frame->jobs_cap = FRAME_JOBS_FIRST;
		if (frame->next_submit < frame->next_record)
			frame->next_submit = frame->next_record;
		while (frame->next_submit < frame->records_len) {
			size_t offset = frame->next_submit;
			const struct dir_record *record =
				frame_record(frame, offset);
			struct dirjob_request request;
			struct dirjob *job;

			if (record->type != DT_DIR) {
				frame->next_submit = frame_record_next(frame, offset);
				continue;
			}
			if (frame->n_jobs >= frame->jobs_cap)
				break;
			/*
			 * The first frame from the top with a child to read
			 * has the one the walk needs next: at the front.
			 */
			request = (struct dirjob_request){
				.dirfd = frame->fd,
				.name = record->name,
				.depth = frame->depth + 1,
				.record_offset = offset,
			};
			job = bino__dirread_submit(walk->pool, &request,
						   frame->jobs_tail, soon);
			if (!job)
				return; /* at the bound: the walk reads it */
			frame->next_submit = frame_record_next(frame, offset);
			if (frame->jobs_tail)
				frame->jobs_tail->later = job;
			else
				frame->jobs = job;
			frame->jobs_tail = job;
			frame->n_jobs++;
		}
		if (frame->jobs)
			soon = false;
	}
}

/*
 * The job for the child at @offset of the top frame, taken back with its
 * results, or NULL if it has none.
 */
struct dirjob *bino__walk_take_job(struct bino_walk *walk, size_t offset)
{
	struct dir_frame *frame = walk->top;
	struct dirjob *job = frame->jobs;

	if (!job || job->record_offset != offset)
		return NULL;
	frame->jobs = job->later;
	if (!frame->jobs)
		frame->jobs_tail = NULL;
	frame->n_jobs--;
	bino__dirread_finish(walk->pool, job);
	if (job->counts.dirs > 0)
		frame->jobs_cap = FRAME_JOBS_FIRST;
	else if (frame->jobs_cap < JOBS_MAX)
		frame->jobs_cap *= 2;
	return job;
}

/*
 * Give up every job out, of every frame: their fds are closed and the
 * frames they pinned can be evicted.  For EMFILE: the caller opened more.
 */
bool bino__walk_cancel_jobs(struct bino_walk *walk)
{
	struct dir_frame *frame;
	struct dirjob *job;
	bool any = false;

	for (frame = walk->top; frame; frame = frame->parent) {
		while ((job = frame->jobs)) {
			frame->jobs = job->later;
			bino__dirread_cancel(walk->pool, job);
			any = true;
		}
		frame->jobs_tail = NULL;
		frame->n_jobs = 0;
		frame->next_submit = frame->records_len; /* none again */
	}
	return any;
}

/*
 * A helper's lstat of the child @record, the @index-th of @frame, if it
 * made one and the name still held the inode readdir gave (else the walk
 * stats, and sees what changed, itself).
 */
const struct bino_kstatx *bino__frame_stat_ahead(const struct dir_frame *frame,
						 size_t index,
						 const struct dir_record *record)
{
	const struct bino_kstatx *stx;

	if (!frame->job || index >= frame->job->n_stats)
		return NULL;
	stx = &frame->job->stats[index];
	if (!stx->mask || stx->ino != record->ino)
		return NULL;
	return stx;
}
