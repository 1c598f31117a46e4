/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The walker: depth-first, one entry per bino_walk_next(), keyed on true
 * identity.  It owns the traversal; what identity an inode has is asked of
 * identity.c (bino__identify()), which never calls back.  The walk's state
 * is one struct bino_walk passed first to small walk_* helpers, as bfs's
 * bftw.c does.  Components, top to bottom:
 *
 *  - walk_next_start(): starting paths, one after another.
 *  - The directory stack: a dir_frame for each directory being read, linked
 *    child to parent, so depth costs heap, never C stack.
 *  - walk_enter(): each directory is read whole with getdents64 when it is
 *    entered.  Its fd is then needed only to open or stat children, so it can
 *    be closed under fd pressure (walk_evict_fd) and reopened from the
 *    nearest open ancestor, name by name (bino__walk_frame_fd): open fds stay
 *    bounded and paths may be longer than PATH_MAX.
 *  - Helper threads (walk_ahead.c, over the pool of dirread.c): they open,
 *    stat and read directories ahead of the walk, in its order, and
 *    walk_next_child() takes a child's results (struct dirjob) when it
 *    reaches it, so the output and its order are those of the walk alone.
 *    A frame with jobs out keeps its fd open; jobs and pinned frames have
 *    their share of the fd budget, and EMFILE cancels the jobs.  With
 *    BINO_WALK_STAT_AHEAD the helpers also stat the entries, while the
 *    caller asks for their stats (counted per frame, here).
 *  - What the caller reads of an entry is walk_entry.c's; the state the three
 *    files share is walk_state.h.
 *  - walk_visit_stat(): a name that may be a directory is stat'ed (opened
 *    first if the walk may enter it) and identified: bino__identify() turns
 *    the statx result into a (dev, subvolid, ino) key, given where the
 *    inode was found (struct bino_inode_at) and its directory's identity.
 *  - The fast path in walk_next_child(): a non-directory on a filesystem
 *    whose d_ino is exact (btrfs, an NFS client, the DINO_EXACT kinds)
 *    gets its identity from readdir and its directory,
 *    and is stat'ed only if the caller asks (bino_entry_stat()).
 *  - Loop detection: a directory whose key equals an ancestor's is reported
 *    and not entered.  Equal (st_dev, st_ino) with another key is no loop.
 *  - walk->after: what the next call owes the caller for the entry just
 *    returned (enter the directory, report its error, visit it post-order).
 */
#include "walk_state.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "array.h"
#include "mounts.h"

#define FD_BUDGET_MAX 512
#define FD_RESERVED_FOR_CALLER 8
/*
 * Where nothing can tell subvolumes apart (an NFSv4.0 client), every
 * subvolume root looks alike; a real loop repeats without end, nested
 * subvolumes do not, so an uncertain key must recur this often to be one.
 */
#define UNCERTAIN_LOOP_REPEATS 16

#define WALK_ALL_FLAGS                                                       \
	(BINO_WALK_POST_ORDER | BINO_WALK_XDEV | BINO_WALK_SAME_SUBVOL |     \
	 BINO_WALK_FOLLOW_ARGS | BINO_WALK_FOLLOW_ALL | BINO_WALK_STAT_ALL | \
	 BINO_WALK_NO_STATX_SUBVOL | BINO_WALK_NO_SUBVOL_IOCTL |            \
	 BINO_WALK_STAT_AHEAD)


/* ---- paths ------------------------------------------------------------- */

/* Room for @extra more bytes of path and its NUL. */
static enum bino_error walk_path_reserve(struct bino_walk *walk, size_t extra)
{
	if (extra >= SIZE_MAX - walk->path_len ||
	    ARRAY_RESERVE(walk->path, walk->path_cap,
			  walk->path_len + extra + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	return BINO_OK;
}

static void walk_path_truncate(struct bino_walk *walk, size_t len)
{
	walk->path_len = len;
	walk->path[len] = '\0';
}

/* Append "/name" (no slash after a trailing one), the name at *@name_offset. */
static enum bino_error walk_path_push(struct bino_walk *walk, const char *name,
				      size_t *name_offset)
{
	size_t name_len = strlen(name);
	bool slash = walk->path_len > 0 && walk->path[walk->path_len - 1] != '/';

	if (walk_path_reserve(walk, name_len + 1) != BINO_OK)
		return BINO_ERROR_NO_MEMORY;
	if (slash)
		walk->path[walk->path_len++] = '/';
	*name_offset = walk->path_len;
	memcpy(walk->path + walk->path_len, name, name_len + 1);
	walk->path_len += name_len;
	return BINO_OK;
}

/* ---- file descriptors -------------------------------------------------- */

/* How many descriptors the process has open now (3 if /proc cannot say). */
static int count_open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *dent;
	int count = 0;

	if (!dir)
		return 3;
	while ((dent = readdir(dir)))
		if (dent->d_name[0] != '.')
			count++;
	closedir(dir);
	return count - 1; /* the directory's own */
}

/*
 * How many directory fds the walk keeps open: what the limit leaves after
 * the caller's open fds and a reserve for what the caller opens between
 * entries.  At least one; EMFILE still evicts should the caller open more.
 */
static int walk_fd_budget(void)
{
	struct rlimit limit;
	long available;

	if (getrlimit(RLIMIT_NOFILE, &limit) != 0 ||
	    limit.rlim_cur == RLIM_INFINITY)
		return FD_BUDGET_MAX;
	available = (long)limit.rlim_cur - count_open_fds() -
		    FD_RESERVED_FOR_CALLER;
	if (available < 1)
		return 1;
	return available > FD_BUDGET_MAX ? FD_BUDGET_MAX : (int)available;
}

static void walk_close_frame_fd(struct bino_walk *walk, struct dir_frame *frame)
{
	if (frame->fd >= 0) {
		assert(walk->open_fds > 0);
		close(frame->fd);
		frame->fd = -1;
		walk->open_fds--;
	}
}

/* Close the shallowest open ancestor's fd: it is needed again last. */
static bool walk_evict_fd(struct bino_walk *walk)
{
	struct dir_frame *victim = NULL;
	struct dir_frame *frame;

	for (frame = walk->top ? walk->top->parent : NULL; frame;
	     frame = frame->parent) {
		if (frame->fd >= 0 && !frame->jobs)
			victim = frame;
	}
	if (!victim)
		return false;
	walk_close_frame_fd(walk, victim);
	return true;
}

/*
 * openat() that makes room in the budget, and again on EMFILE/ENFILE: a
 * wrapper of that one call, returning the fd or -1 with errno as it does.
 */
static int walk_openat(struct bino_walk *walk, int dirfd, const char *name,
		       int oflags)
{
	int fd;

	while (walk->open_fds >= walk->fd_budget && walk_evict_fd(walk))
		;
	for (;;) {
		fd = openat(dirfd, name, oflags | O_CLOEXEC);
		if (fd >= 0 || (errno != EMFILE && errno != ENFILE))
			return fd;
		if (!walk_evict_fd(walk) && !bino__walk_cancel_jobs(walk))
			return fd;
	}
}

/*
 * The fd of a frame, reopened if it was evicted: from the nearest ancestor
 * still open, one name at a time, then checked to be the same directory.
 */
enum bino_error bino__walk_frame_fd(struct bino_walk *walk,
				    struct dir_frame *frame, int *ret,
				    int *errnum)
{
	struct dir_frame **chain;
	struct dir_frame *base;
	struct bino_kstatx stx;
	int fd, n = 0;

	if (frame->fd >= 0) {
		*ret = frame->fd;
		return BINO_OK;
	}
	chain = malloc(((size_t)frame->depth + 1) * sizeof(*chain));
	if (!chain) {
		*errnum = ENOMEM;
		return BINO_ERROR_NO_MEMORY;
	}
	for (base = frame; base && base->fd < 0; base = base->parent) {
		assert(n <= frame->depth); /* a frame's ancestors: its depth */
		chain[n++] = base;
	}
	fd = base ? base->fd : AT_FDCWD;
	while (n-- > 0) {
		int next = walk_openat(walk, fd, chain[n]->name,
				       dir_open_flags(chain[n]->followed));

		*errnum = errno;
		if (fd >= 0 && (!base || fd != base->fd))
			close(fd);
		if (next < 0) {
			free(chain);
			return BINO_ERROR_OPEN_FAILED;
		}
		fd = next;
	}
	free(chain);
	if (bino__statx(fd, "", AT_EMPTY_PATH, &stx) != 0 ||
	    bino__statx_dev(&stx) != frame->id.raw_dev ||
	    stx.ino != frame->stx.ino) {
		close(fd);
		*errnum = ESTALE;
		return BINO_ERROR_CHANGED_DURING_WALK;
	}
	frame->fd = fd;
	walk->open_fds++;
	*ret = fd;
	return BINO_OK;
}

/* ---- types ------------------------------------------------------------- */

static enum bino_type type_from_mode(uint32_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return BINO_TYPE_FILE;
	case S_IFDIR:
		return BINO_TYPE_DIR;
	case S_IFLNK:
		return BINO_TYPE_SYMLINK;
	case S_IFBLK:
		return BINO_TYPE_BLOCK;
	case S_IFCHR:
		return BINO_TYPE_CHAR;
	case S_IFIFO:
		return BINO_TYPE_FIFO;
	case S_IFSOCK:
		return BINO_TYPE_SOCKET;
	default:
		return BINO_TYPE_UNKNOWN;
	}
}

static enum bino_type type_from_dtype(uint8_t d_type)
{
	switch (d_type) {
	case DT_REG:
		return BINO_TYPE_FILE;
	case DT_DIR:
		return BINO_TYPE_DIR;
	case DT_LNK:
		return BINO_TYPE_SYMLINK;
	case DT_BLK:
		return BINO_TYPE_BLOCK;
	case DT_CHR:
		return BINO_TYPE_CHAR;
	case DT_FIFO:
		return BINO_TYPE_FIFO;
	case DT_SOCK:
		return BINO_TYPE_SOCKET;
	default:
		return BINO_TYPE_UNKNOWN;
	}
}

/*
 * Whether readdir's d_ino, with the directory's key, is the exact identity
 * of a child that is no directory.  On an NFS client too: such a child is
 * never a subvolume root or a mount point on the server, so it is in its
 * directory's subvolume, uncertain where the directory is, and d_ino is the
 * server's fileid, as st_ino is (mounted_on_fileid differs from the fileid
 * only at a mount point, a directory).
 */
static bool frame_trusts_readdir(const struct bino_walk *walk,
				 const struct dir_frame *frame)
{
	if (walk->flags & BINO_WALK_STAT_ALL)
		return false;
	if ((frame->id.flags & BINO_ENTRY_IDENTITY_UNCERTAIN) &&
	    frame->id.kind != BINO_FS_NFS)
		return false;
	if (frame->id.kind != BINO_FS_BTRFS &&
	    frame->id.kind != BINO_FS_DINO_EXACT &&
	    frame->id.kind != BINO_FS_NFS)
		return false;
	return !bino__mount_has_file_mountpoints(frame->id.mount);
}

/* ---- entries ----------------------------------------------------------- */

static struct bino_entry *walk_entry_reset(struct bino_walk *walk,
					   size_t name_offset, int depth)
{
	struct bino_entry *entry = &walk->entry;

	memset(entry, 0, sizeof(*entry));
	entry->walk = walk;
	entry->name_offset = name_offset;
	entry->depth = depth;
	return entry;
}

static void walk_entry_error(struct bino_walk *walk, size_t name_offset,
			     int depth, enum bino_error error, int error_errno)
{
	struct bino_entry *entry = walk_entry_reset(walk, name_offset, depth);

	entry->event = BINO_EVENT_ERROR;
	entry->error = error;
	entry->error_errno = error_errno;
}

/* Fill the entry for an inode that was stat'ed. */
static void walk_entry_stat(struct bino_walk *walk, size_t name_offset,
			    int depth, const struct bino_kstatx *stx,
			    const struct bino_identity *id, bool followed)
{
	struct bino_entry *entry = walk_entry_reset(walk, name_offset, depth);

	entry->type = type_from_mode(stx->mode);
	entry->id = *id;
	entry->have_stx = true;
	entry->stx = *stx;
	entry->followed = followed;
	if (id->flags & BINO_ENTRY_IDENTITY_UNCERTAIN) {
		entry->error = id->error;
		entry->error_errno = id->error_errno;
	}
}

/*
 * Whether the entry's key equals an ancestor's; if so, points the entry at
 * that ancestor's path.  An uncertain key must recur UNCERTAIN_LOOP_REPEATS
 * times, and the nearest match is named.
 */
static bool walk_check_loop(struct bino_walk *walk)
{
	const struct bino_identity *id = &walk->entry.id;
	int needed = (id->flags & BINO_ENTRY_IDENTITY_UNCERTAIN) ?
			     UNCERTAIN_LOOP_REPEATS : 1;
	struct dir_frame *nearest = NULL;
	struct dir_frame *frame;

	for (frame = walk->top; frame && needed > 0; frame = frame->parent) {
		if (!bino_key_equal(&frame->id.key, &id->key))
			continue;
		if (!nearest)
			nearest = frame;
		needed--;
	}
	if (needed > 0)
		return false;
	assert(nearest);
	if (ARRAY_RESERVE(walk->ancestor_path, walk->ancestor_cap,
			  nearest->path_len + 1))
		return true; /* still a loop; the path stays unknown */
	memcpy(walk->ancestor_path, walk->path, nearest->path_len);
	walk->ancestor_path[nearest->path_len] = '\0';
	walk->entry.loop_ancestor = walk->ancestor_path;
	return true;
}

/*
 * Decide what happens after returning a directory entry: enter it (fd kept
 * as walk->pending_fd, and the records of @job, a helper's reading of it, if
 * not NULL), report it as a loop, or not enter it.
 */
static void walk_plan_dir(struct bino_walk *walk, int fd, struct dirjob **job)
{
	struct bino_entry *entry = &walk->entry;
	bool enter = fd >= 0;

	if (walk_check_loop(walk)) {
		entry->event = BINO_EVENT_LOOP;
		if (fd >= 0 && !*job) /* else the job's to close */
			close(fd);
		walk->after = AFTER_NOTHING;
		return;
	}
	if (walk->max_depth >= 0 && entry->depth >= walk->max_depth)
		enter = false;
	if (entry->depth > 0 && (walk->flags & BINO_WALK_XDEV) &&
	    entry->id.mnt_id != walk->start_id.mnt_id) {
		entry->id.flags |= BINO_ENTRY_PRUNED;
		enter = false;
	}
	if (entry->depth > 0 && (walk->flags & BINO_WALK_SAME_SUBVOL) &&
	    (entry->id.key.subvolid != walk->start_id.key.subvolid ||
	     entry->id.key.dev != walk->start_id.key.dev)) {
		entry->id.flags |= BINO_ENTRY_PRUNED;
		enter = false;
	}
	if (walk->max_depth >= 0 && entry->depth >= walk->max_depth)
		entry->id.flags |= BINO_ENTRY_PRUNED;
	if (!enter) {
		if (fd >= 0 && !*job)
			close(fd);
		walk->after = (walk->flags & BINO_WALK_POST_ORDER) ?
				      AFTER_POST : AFTER_NOTHING;
		return;
	}
	walk->pending_fd = fd;
	walk->pending_stx = entry->stx;
	walk->open_fds++;
	walk->after = AFTER_ENTER;
	if (*job) {
		/* The job and its fd are the walk's now. */
		(*job)->fd = -1;
		walk->pending_job = *job;
		*job = NULL;
	}
}

/* Close the directory planned to be entered, and drop its records. */
static void walk_drop_pending(struct bino_walk *walk)
{
	/* Its children's parent fd is pending_fd: before it is closed. */
	if (walk->pending_job) {
		bino__dirread_release(walk->pool, walk->pending_job);
		walk->pending_job = NULL;
	}
	if (walk->pending_fd >= 0) {
		close(walk->pending_fd);
		walk->pending_fd = -1;
		walk->open_fds--;
	}
}

/* A directory that could not be opened: return it, then its error. */
static void walk_plan_dir_error(struct bino_walk *walk, enum bino_error error,
				int error_errno)
{
	if (walk_check_loop(walk)) {
		walk->entry.event = BINO_EVENT_LOOP;
		walk->after = AFTER_NOTHING;
		return;
	}
	walk->after = AFTER_ERROR;
	walk->pending_error = error;
	walk->pending_errno = error_errno;
	walk->post_after_error = walk->flags & BINO_WALK_POST_ORDER;
}

/* A name for walk_visit_stat() to stat, identify and perhaps open. */
struct walk_visit {
	struct bino_inode_at at; /* at.fd is -1: the visit opens it */
	size_t name_offset; /* of the name in walk->path */
	int depth;
	bool maybe_dir; /* open it too if the walk may descend */
	struct dirjob *job; /* opened, stat'ed and read by a helper, or NULL */
	const struct bino_kstatx *ahead; /* its lstat by a helper, or NULL */
};

/*
 * Stat and identify a directory (or what turned out not to be one) at
 * @visit, opening it if the walk may descend.  Fills walk->entry and plans
 * what follows.
 */
static void walk_visit_stat(struct bino_walk *walk, struct walk_visit *visit)
{
	struct bino_inode_at at = visit->at;
	struct bino_kstatx stx;
	struct bino_identity id;
	int open_errno = 0;
	int at_flags = at.follow ? 0 : AT_SYMLINK_NOFOLLOW;

	assert(at.fd < 0);
	if (visit->job) {
		/* What the code below does, done ahead; the job keeps its fd. */
		at.fd = visit->job->fd;
		open_errno = visit->job->open_errno;
		if (at.fd >= 0 && visit->job->stat_errno) {
			walk_entry_error(walk, visit->name_offset, visit->depth,
					 BINO_ERROR_STAT_FAILED,
					 visit->job->stat_errno);
			return;
		}
		stx = visit->job->stx;
	} else if (visit->maybe_dir && want_descent(walk, visit->depth)) {
		at.fd = walk_openat(walk, at.dirfd, at.name,
				    dir_open_flags(at.follow));
		if (at.fd < 0)
			open_errno = errno;
		else if (bino__statx(at.fd, "", AT_EMPTY_PATH, &stx) != 0) {
			walk_entry_error(walk, visit->name_offset, visit->depth,
					 BINO_ERROR_STAT_FAILED, errno);
			close(at.fd);
			return;
		}
	}
	if (at.fd < 0 && visit->ahead && !at.follow) {
		stx = *visit->ahead;
	} else if (at.fd < 0 &&
		   bino__statx(at.dirfd, at.name, at_flags, &stx) != 0) {
		int stat_errno = errno;

		/* A dangling symbolic link is still an entry (find -L). */
		if (at.follow && stat_errno == ENOENT &&
		    bino__statx(at.dirfd, at.name, AT_SYMLINK_NOFOLLOW, &stx) == 0)
			at.follow = false;
		else {
			walk_entry_error(walk, visit->name_offset, visit->depth,
					 BINO_ERROR_STAT_FAILED, stat_errno);
			return;
		}
	}
	bino__identify(&walk->identifier, &at, &stx, &id);
	walk_entry_stat(walk, visit->name_offset, visit->depth, &stx, &id,
			at.follow);
	if (!S_ISDIR(stx.mode)) {
		if (at.fd >= 0 && !visit->job)
			close(at.fd);
		walk->after = AFTER_NOTHING;
		return;
	}
	if (at.fd < 0 && open_errno && open_errno != ENOTDIR &&
	    open_errno != ELOOP)
		walk_plan_dir_error(walk, BINO_ERROR_OPEN_FAILED, open_errno);
	else
		walk_plan_dir(walk, at.fd, &visit->job);
}

/* The next starting path; BINO_ERROR_STOP_ITERATION when none is left. */
static enum bino_error walk_next_start(struct bino_walk *walk)
{
	struct walk_visit visit = { .at = { .dirfd = AT_FDCWD, .fd = -1 },
				    .maybe_dir = true };
	const char *start;
	size_t start_len;

	if (walk->next_start >= walk->n_start_paths)
		return BINO_ERROR_STOP_ITERATION;
	start = walk->start_paths[walk->next_start++];
	start_len = strlen(start);
	walk->path_len = 0;
	if (walk_path_reserve(walk, start_len) != BINO_OK)
		return BINO_ERROR_NO_MEMORY;
	memcpy(walk->path, start, start_len + 1);
	walk->path_len = start_len;
	visit.at.name = start;
	visit.at.follow = walk->flags &
			  (BINO_WALK_FOLLOW_ARGS | BINO_WALK_FOLLOW_ALL);
	walk_visit_stat(walk, &visit);
	walk->entry.id.flags |= BINO_ENTRY_START;
	walk->start_id = walk->entry.id;
	return BINO_OK;
}

/*
 * Give @frame what a helper read of it: its records and its children's
 * jobs.  BINO_OK, or the helper's read error (NO_MEMORY or
 * READDIR_FAILED) with its errno in *@errnum.
 */
static enum bino_error frame_take_job(struct dir_frame *frame,
				      struct dirjob *job, int *errnum)
{
	frame->job = job;
	frame->records = job->records;
	frame->records_len = job->records_len;
	frame->jobs = job->children;
	job->children = NULL;
	for (frame->jobs_tail = frame->jobs; frame->jobs_tail;
	     frame->jobs_tail = frame->jobs_tail->later) {
		frame->n_jobs++;
		if (!frame->jobs_tail->later)
			break;
	}
	frame->next_submit = job->children_next;
	*errnum = job->read_errno;
	if (!*errnum)
		return BINO_OK;
	return *errnum == ENOMEM ? BINO_ERROR_NO_MEMORY :
				   BINO_ERROR_READDIR_FAILED;
}

/* Push the directory just returned and read it (unless a helper did). */
static enum bino_error walk_enter(struct bino_walk *walk)
{
	struct bino_entry *entry = &walk->entry;
	struct dir_frame *frame = calloc(1, sizeof(*frame));
	const char *name = walk->path + entry->name_offset;
	struct dir_counts counts = { 0 };
	size_t cap = 0;
	enum bino_error err = BINO_OK;
	int errnum = 0;

	assert(walk->pending_fd >= 0);
	if (!frame)
		goto out_pending;
	*frame = (struct dir_frame){
		.parent = walk->top,
		.fd = walk->pending_fd,
		.name = strdup(entry->depth == 0 ? walk->path : name),
		.followed = entry->followed,
		.path_len = walk->path_len,
		.name_offset = entry->name_offset,
		.depth = entry->depth,
		.id = entry->id,
		.stx = walk->pending_stx,
	};
	if (!frame->name)
		goto out_frame;
	walk->pending_fd = -1;
	walk->top = frame;
	frame->stat_children = !frame_trusts_readdir(walk, frame);
	if (walk->pending_job) {
		err = frame_take_job(frame, walk->pending_job, &errnum);
		walk->pending_job = NULL;
	} else {
		err = bino__dir_read(frame->fd, &frame->records,
				     &frame->records_len, &cap, &counts,
				     &errnum);
	}
	if (err == BINO_ERROR_NO_MEMORY)
		return BINO_ERROR_NO_MEMORY;
	if (err != BINO_OK) {
		walk_entry_error(walk, frame->name_offset, frame->depth,
				 BINO_ERROR_READDIR_FAILED, errnum);
		frame->records_len = 0;
		return BINO_OK;
	}
	if (walk->pool)
		bino__walk_schedule(walk);
	return BINO_ERROR_STOP_ITERATION; /* nothing to report: go on */

out_frame:
	free(frame);
out_pending:
	walk_drop_pending(walk);
	return BINO_ERROR_NO_MEMORY;
}

static void walk_pop(struct bino_walk *walk)
{
	struct dir_frame *frame = walk->top;
	struct dirjob *job;

	assert(frame);
	/* Whether the caller stats most entries: then helpers stat ahead. */
	if (walk->pool && (walk->flags & BINO_WALK_STAT_AHEAD) &&
	    frame->n_from_readdir > 0)
		bino__dirread_want_stats(walk->pool, frame->n_stats_asked * 2 >=
							     frame->n_from_readdir);
	/* Left only when the walk ends early: its parent fd is still open. */
	while ((job = frame->jobs)) {
		frame->jobs = job->later;
		bino__dirread_cancel(walk->pool, job);
	}
	walk->top = frame->parent;
	walk_close_frame_fd(walk, frame);
	if (frame->job)
		bino__dirread_release(walk->pool, frame->job);
	else
		free(frame->records);
	free(frame->name);
	free(frame);
}

/* The post-order visit of the top frame, which is then popped. */
static void walk_entry_post(struct bino_walk *walk)
{
	struct dir_frame *frame = walk->top;
	struct bino_entry *entry;

	walk_path_truncate(walk, frame->path_len);
	entry = walk_entry_reset(walk, frame->name_offset, frame->depth);
	entry->visit = BINO_VISIT_POST;
	entry->type = BINO_TYPE_DIR;
	entry->id = frame->id;
	entry->have_stx = true;
	entry->stx = frame->stx;
	entry->followed = frame->followed;
}

/*
 * The top frame's child @record, known from readdir alone (not a directory,
 * and the frame's children need no stat): its key is the frame's with the
 * record's inode number; @ahead, a helper's stat of it, or NULL.
 */
static void walk_entry_from_readdir(struct bino_walk *walk,
				    const struct dir_record *record,
				    const struct bino_kstatx *ahead,
				    size_t name_offset)
{
	struct dir_frame *frame = walk->top;
	struct bino_entry *entry =
		walk_entry_reset(walk, name_offset, frame->depth + 1);

	entry->type = type_from_dtype(record->type);
	entry->from_readdir = true;
	frame->n_from_readdir++;
	if (ahead) {
		entry->have_stx = true;
		entry->stx = *ahead;
	}
	entry->id = frame->id;
	entry->id.flags &= BINO_ENTRY_IDENTITY_UNCERTAIN;
	entry->id.key.ino = record->ino;
	if (entry->id.flags & BINO_ENTRY_IDENTITY_UNCERTAIN) {
		entry->error = entry->id.error;
		entry->error_errno = entry->id.error_errno;
	}
	walk->after = AFTER_NOTHING;
}

/*
 * The top frame's directory is gone or replaced (@error, @errnum): an error
 * entry for it, and the rest of its children skipped.
 */
static void walk_frame_lost(struct bino_walk *walk, enum bino_error error,
			    int errnum)
{
	struct dir_frame *frame = walk->top;

	walk_entry_error(walk, frame->name_offset, frame->depth, error, errnum);
	walk_path_truncate(walk, frame->path_len);
	frame->next_record = frame->records_len;
	walk->after = AFTER_NOTHING;
}

/*
 * The next child of the top frame.  Returns BINO_OK with walk->entry filled,
 * BINO_ERROR_STOP_ITERATION when the frame is exhausted, or a fatal error.
 */
static enum bino_error walk_next_child(struct bino_walk *walk)
{
	struct dir_frame *frame = walk->top;
	const struct dir_record *record;
	const struct bino_kstatx *ahead;
	struct walk_visit visit;
	size_t name_offset, offset;
	bool follow = walk->flags & BINO_WALK_FOLLOW_ALL;
	bool is_dir, may_be_dir;
	enum bino_error error;
	int dirfd, errnum;

	if (frame->next_record >= frame->records_len)
		return BINO_ERROR_STOP_ITERATION;
	offset = frame->next_record;
	record = frame_record(frame, offset);
	frame->next_record = frame_record_next(frame, offset);
	ahead = bino__frame_stat_ahead(frame, frame->next_index++, record);
	walk_path_truncate(walk, frame->path_len);
	if (walk_path_push(walk, record->name, &name_offset) != BINO_OK)
		return BINO_ERROR_NO_MEMORY;

	is_dir = record->type == DT_DIR;
	may_be_dir = is_dir || record->type == DT_UNKNOWN ||
		     (follow && record->type == DT_LNK);
	if (!may_be_dir && !frame->stat_children) {
		walk_entry_from_readdir(walk, record, ahead, name_offset);
		return BINO_OK;
	}
	error = bino__walk_frame_fd(walk, frame, &dirfd, &errnum);
	if (error != BINO_OK) {
		walk_frame_lost(walk, error, errnum);
		return BINO_OK;
	}
	visit = (struct walk_visit){
		.at = { .parent = &frame->id, .dirfd = dirfd,
			.name = record->name, .follow = follow, .fd = -1 },
		.name_offset = name_offset,
		.depth = frame->depth + 1,
		.maybe_dir = may_be_dir,
		.ahead = ahead,
		.job = is_dir && walk->pool ? bino__walk_take_job(walk, offset) : NULL,
	};
	if (visit.job && visit.job->fd < 0 &&
	    (visit.job->open_errno == EMFILE || visit.job->open_errno == ENFILE)) {
		/* The helper had no fd to spare; the walk makes room. */
		bino__dirread_release(walk->pool, visit.job);
		visit.job = NULL;
	}
	walk_visit_stat(walk, &visit);
	if (visit.job) {
		bino__dirread_release(walk->pool, visit.job);
		bino__walk_schedule(walk);
	}
	return BINO_OK;
}

/* ---- public API -------------------------------------------------------- */

BINO_PUBLIC enum bino_error bino_walk_create(const char *const *paths,
					     size_t n_paths, int flags,
					     struct bino_walk **ret)
{
	struct bino_walk *walk;
	enum bino_error err;
	size_t i;

	if (!paths || n_paths == 0 || !ret || (flags & ~WALK_ALL_FLAGS))
		return BINO_ERROR_INVALID_ARGUMENT;
	for (i = 0; i < n_paths; i++) {
		if (!paths[i])
			return BINO_ERROR_INVALID_ARGUMENT;
	}
	walk = calloc(1, sizeof(*walk));
	if (!walk)
		return BINO_ERROR_NO_MEMORY;
	walk->flags = flags;
	walk->max_depth = -1;
	walk->threads = 1;
	walk->pending_fd = -1;
	walk->fd_budget = walk_fd_budget();
	walk->start_paths = calloc(n_paths, sizeof(*walk->start_paths));
	if (!walk->start_paths)
		goto out_nomem;
	walk->n_start_paths = n_paths;
	for (i = 0; i < n_paths; i++) {
		walk->start_paths[i] = strdup(paths[i]);
		if (!walk->start_paths[i])
			goto out_nomem;
	}
	if (walk_path_reserve(walk, 0) != BINO_OK)
		goto out_nomem;
	walk->path[0] = '\0';
	err = bino__identifier_init(&walk->identifier, flags);
	if (err) {
		bino_walk_destroy(walk);
		return err;
	}
	*ret = walk;
	return BINO_OK;

out_nomem:
	bino_walk_destroy(walk);
	return BINO_ERROR_NO_MEMORY;
}

BINO_PUBLIC enum bino_error bino_walk_set_threads(struct bino_walk *walk,
						  int threads)
{
	if (!walk)
		return BINO_ERROR_INVALID_ARGUMENT;
	if (walk->started || threads < 1)
		return BINO_ERROR_INVALID_ARGUMENT;
	walk->threads = threads;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error bino_walk_set_max_depth(struct bino_walk *walk,
						    int depth)
{
	if (!walk)
		return BINO_ERROR_INVALID_ARGUMENT;
	if (walk->started)
		return BINO_ERROR_INVALID_ARGUMENT;
	walk->max_depth = depth < 0 ? -1 : depth;
	return BINO_OK;
}

/* Settle what the previous entry left owing; BINO_OK if it yields an entry. */
static enum bino_error walk_settle_after(struct bino_walk *walk)
{
	enum walk_after after = walk->after;

	walk->after = AFTER_NOTHING;
	switch (after) {
	case AFTER_NOTHING:
		return BINO_ERROR_STOP_ITERATION;
	case AFTER_POST:
		walk->entry.visit = BINO_VISIT_POST;
		return BINO_OK;
	case AFTER_POST_SAVED:
		walk->entry = walk->saved_entry;
		walk->entry.visit = BINO_VISIT_POST;
		return BINO_OK;
	case AFTER_ERROR:
		if (walk->post_after_error) {
			walk->saved_entry = walk->entry;
			walk->after = AFTER_POST_SAVED;
		}
		walk_entry_error(walk, walk->entry.name_offset,
				 walk->entry.depth, walk->pending_error,
				 walk->pending_errno);
		return BINO_OK;
	case AFTER_ENTER:
		if (walk->pruned) {
			walk_drop_pending(walk);
			if (walk->flags & BINO_WALK_POST_ORDER) {
				walk->entry.visit = BINO_VISIT_POST;
				return BINO_OK;
			}
			return BINO_ERROR_STOP_ITERATION;
		}
		return walk_enter(walk);
	}
	assert(!"walk->after holds one of enum walk_after");
	return BINO_ERROR_STOP_ITERATION;
}

BINO_PUBLIC enum bino_error bino_walk_next(struct bino_walk *walk,
					   struct bino_entry **ret)
{
	enum bino_error err;

	if (!walk || !ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	if (!walk->started)
		bino__walk_start_helpers(walk);
	walk->started = true;
	err = walk_settle_after(walk);
	walk->pruned = false;
	if (err != BINO_ERROR_STOP_ITERATION)
		goto out;
	for (;;) {
		if (!walk->top) {
			err = walk_next_start(walk);
			goto out;
		}
		err = walk_next_child(walk);
		if (err != BINO_ERROR_STOP_ITERATION)
			goto out;
		if (walk->flags & BINO_WALK_POST_ORDER) {
			walk_entry_post(walk);
			walk_pop(walk);
			walk->after = AFTER_NOTHING;
			err = BINO_OK;
			goto out;
		}
		walk_pop(walk);
	}
out:
	if (err == BINO_OK)
		*ret = &walk->entry;
	return err;
}

BINO_PUBLIC void bino_walk_prune(struct bino_walk *walk)
{
	if (!walk)
		return;

	walk->pruned = true;
}

BINO_PUBLIC void bino_walk_destroy(struct bino_walk *walk)
{
	size_t i;

	if (!walk)
		return;
	while (walk->top)
		walk_pop(walk);
	walk_drop_pending(walk);
	bino__dirread_destroy(walk->pool);
	if (walk->start_paths) {
		for (i = 0; i < walk->n_start_paths; i++)
			free(walk->start_paths[i]);
	}
	free(walk->start_paths);
	bino__identifier_release(&walk->identifier);
	free(walk->path);
	free(walk->ancestor_path);
	free(walk);
}

BINO_PUBLIC const struct bino_mounts *
bino_walk_mounts(const struct bino_walk *walk)
{
	if (!walk)
		return NULL;
	return walk->identifier.mounts;
}
