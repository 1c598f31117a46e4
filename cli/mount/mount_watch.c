/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino mount --watch: a keeper that mounts a new subvolume below an
 * export within about a second of its creation, and costs an idle server
 * nothing it would notice.
 *
 * How it notices, and why so: once a second it looks at each btrfs
 * filesystem holding a watched PATH through the library's bino_fswatch (a
 * few system calls, whatever the number of subvolumes or files, and a
 * digest of the root tree's subvolume links only after a transaction: a
 * change is a subvolume created, deleted or renamed, never a file
 * written), stats the exports files and exportfs's etab, and polls
 * /proc/self/mountinfo (the kernel marks it when any mount or unmount
 * happens; the lines of the mounts on a watched PATH's branch are then
 * compared).  Only when one of them changed does it plan again, in one of
 * two ways:
 *
 *  - a quick pass, when the only change is subvolumes created below a
 *    PATH: the look names them (bino_fswatch_added_id(), the IDs above
 *    every ID known, from the root tree's leaves written since), and the
 *    pass plans just those (bino_mountplan_add_subvol_ids(): the same
 *    resolve, checks and policy as the full pass, counting on from its
 *    owners' tallies), so its cost follows the change, not the 100,000
 *    subvolumes a server may have: it is not paced, and a new snapshot is
 *    mounted within a look or two whatever a user's churn beside it;
 *  - a full pass (the same plan and checks as the one-shot command) at
 *    the start, on SIGHUP, after a subvolume was deleted or renamed (its
 *    stale mount, an owner's tally that dropped), the mount table or the
 *    exports changed, and at least every FULL_PASS_SECONDS once quick
 *    passes ran (what a quick pass cannot see: a chown, a mount elsewhere).
 *    While changes keep coming, full passes are paced so that the keeper
 *    as a whole, looks and quick passes included, uses at most a tenth of
 *    a core (PACE_SHARE); meanwhile the looks ask only for new
 *    subvolumes (bino_fswatch_check_added()), as the full pass will see
 *    the rest.  A deleted snapshot's stale mount waits for it.
 *
 * A pass that found a subvolume it could not reach yet (one being created)
 * is made again, RETRY_PASSES times at most: a full pass at the next
 * looks, a quick pass sooner (RETRY_FIRST_MS, doubled each time).
 * Watching the filesystem, not directories, means a subvolume created
 * anywhere below a PATH is seen, in a directory made after the watch began
 * too, and inotify's limits never apply; looking rather than holding a
 * descriptor means it never keeps a filesystem from being unmounted.
 * SIGHUP arrives through a signalfd.  SIGTERM and SIGINT end the process
 * at once (end_now(): everything but a step only reads), except during a
 * step, which blocks them (mount_watch_acting()) so that they never end it
 * in the middle of a mount: it ends within a second at any point of a
 * pass, however many subvolumes the plan or a look at the filesystem
 * reads, and say so on stderr: the keeper's log, one line per event.
 */
#include "mount_watch.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "btrfsino.h"
#include "cli.h"
#include "diag.h"

/* How often the filesystems and the exports files are looked at. */
#define TICK_MS 1000
/*
 * How many passes in a row mount_watch_look_again() may ask for: a new
 * subvolume's name appears within its commit (a second or two on a slow
 * disk); a subvolume another mount hides stays unreachable, and must not
 * make the keeper plan every second for ever.
 */
#define RETRY_PASSES 5
/*
 * A quick pass that could not reach a new subvolume is made again after
 * RETRY_FIRST_MS, then twice as long each time (0.1 to 1.6 s): a snapshot
 * is linked while its commit is written, which under load takes a second,
 * and a new snapshot must not wait for the next look for each try.
 */
#define RETRY_FIRST_MS 100
/*
 * While changes keep coming (a user creating and deleting subvolumes in a
 * loop), the keeper uses at most a tenth of a core: a full pass that a
 * filesystem change (or a retry) asks for waits until the CPU the keeper
 * used since the last full pass began is at most a PACE_SHARE-th of the
 * time since.  A twelfth, not a tenth: that is the keeper's share on
 * average from one full pass to the next, and a full pass (a second of
 * CPU at 100,000 subvolumes) falls unevenly in a shorter span.  A full
 * pass over 1,000 subvolumes costs some 10 ms, so a keeper that size never
 * waits; one over 100,000 would otherwise spend the whole core planning
 * again each second.  A mount table change and SIGHUP are not paced.
 */
#define PACE_SHARE 12
/* How long the state quick passes built may go without a full pass. */
#define FULL_PASS_SECONDS 60
#define SYSTEM_EXPORTS "/etc/exports"
#define SYSTEM_EXPORTS_DIR "/etc/exports.d"
#define SYSTEM_EXPORTS_GLOB SYSTEM_EXPORTS_DIR "/*.exports"
#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

/* A PATH a pass planned, and the watch of the filesystem holding it. */
struct watched {
	char *path;
	struct bino_fswatch *fs; /* NULL: not watched (why in @err, @errnum) */
	enum bino_error err;
	int errnum;
	uint64_t *ids; /* created below it: the next quick pass plans them */
	unsigned char *tries; /* by index in ids: quick passes made for it */
	size_t n_ids, cap_ids, cap_tries;
	double retry_at; /* CLOCK_MONOTONIC: no quick pass for ids before it */
};

struct watched_list {
	struct watched *items;
	size_t n, cap;
};

struct mount_watch {
	const struct mount_watch_config *config;
	struct watched_list now; /* the PATHs of the last pass */
	uint64_t exports_stamp; /* exports_stamp() before the last pass */
	uint64_t mounts_stamp; /* mounts_stamp() before the last pass */
	int signal_fd;
	int mountinfo_fd; /* POLLPRI when the mount table changed */
	bool failed_add; /* mount_watch_add() ran out of memory */
	bool look_again; /* the last pass asked for another at the next tick */
	unsigned retries; /* passes run in a row for look_again */
	bool pending; /* a change seen that a paced full pass has yet to plan */
	bool whole; /* a quick pass asked for a full pass */
	bool quick_since; /* quick passes ran since the last full pass */
	double next_look; /* CLOCK_MONOTONIC: when the next look is due */
	double full_at; /* CLOCK_MONOTONIC when the last full pass began */
	double full_cpu; /* the process's CPU time then */
};

static void watched_list_release(struct watched_list *list)
{
	size_t i;

	for (i = 0; i < list->n; i++) {
		bino_fswatch_destroy(list->items[i].fs);
		free(list->items[i].path);
		free(list->items[i].ids);
		free(list->items[i].tries);
	}
	free(list->items);
	memset(list, 0, sizeof(*list));
}

static const struct watched *watched_find(const struct watched_list *list,
					  const char *path)
{
	size_t i;

	for (i = 0; i < list->n; i++) {
		if (strcmp(list->items[i].path, path) == 0)
			return &list->items[i];
	}
	return NULL;
}

void mount_watch_add(struct mount_watch *watch, const char *path)
{
	struct watched item = { .err = BINO_OK };

	if (watched_find(&watch->now, path))
		return;
	item.path = strdup(path);
	if (!item.path || ARRAY_RESERVE(watch->now.items, watch->now.cap,
					watch->now.n + 1) != 0) {
		free(item.path);
		watch->failed_add = true;
		return;
	}
	item.err = bino_fswatch_create(path, 0, &item.fs);
	item.errnum = item.err ? errno : 0;
	watch->now.items[watch->now.n++] = item;
}

void mount_watch_look_again(struct mount_watch *watch)
{
	watch->look_again = true;
}

void mount_watch_plan_whole(struct mount_watch *watch)
{
	watch->whole = true;
}

/* Fold the identity and times of @path (or its absence) into @hash. */
static uint64_t stamp_file(uint64_t hash, const char *path)
{
	struct stat st;
	uint64_t fields[6] = { 0 };
	const unsigned char *bytes = (const unsigned char *)fields;
	size_t i;

	if (stat(path, &st) == 0) {
		fields[0] = st.st_dev;
		fields[1] = st.st_ino;
		fields[2] = (uint64_t)st.st_size;
		fields[3] = (uint64_t)st.st_mtim.tv_sec;
		fields[4] = (uint64_t)st.st_mtim.tv_nsec;
		fields[5] = (uint64_t)st.st_ctim.tv_nsec;
	}
	for (i = 0; i < sizeof(fields); i++)
		hash = (hash ^ bytes[i]) * FNV_PRIME;
	return hash;
}

/*
 * What the exports files and exportfs's live table look like now (their
 * identity, size and times): a change means exportfs -ra was run, or is
 * about to be.
 */
static uint64_t exports_stamp(const struct mount_watch_config *config)
{
	uint64_t hash = stamp_file(FNV_OFFSET, LIVE_EXPORTS);
	glob_t found;
	size_t i;

	if (config->exports_file)
		return stamp_file(hash, config->exports_file);
	hash = stamp_file(hash, SYSTEM_EXPORTS);
	hash = stamp_file(hash, SYSTEM_EXPORTS_DIR);
	if (glob(SYSTEM_EXPORTS_GLOB, 0, NULL, &found) == 0) {
		for (i = 0; i < found.gl_pathc; i++)
			hash = stamp_file(hash, found.gl_pathv[i]);
		globfree(&found);
	}
	return hash;
}

/* Whether a watch failed as it does where the filesystem is not mounted. */
static bool gone(int errnum)
{
	return errnum == ENOTTY || errnum == ENOENT;
}

/*
 * @path as /proc/self/mountinfo writes it: space, tab, newline, backslash
 * octal.  NULL with errno set (out of memory).
 */
static char *mountinfo_escape(const char *path)
{
	char *out = malloc(4 * strlen(path) + 1), *o = out;

	if (!out)
		return NULL;
	for (; *path; path++) {
		if (strchr(" \t\n\\", *path))
			o += sprintf(o, "\\%03o", (unsigned char)*path);
		else
			*o++ = *path;
	}
	*o = '\0';
	return out;
}

/* Whether @a is @b, or one of them a directory above the other. */
static bool on_one_branch(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = la < lb ? la : lb;

	if (strncmp(a, b, n) != 0)
		return false;
	if (la == lb)
		return true;
	/* "/" is above everything; else the shorter must end at a '/'. */
	return n == 1 || (la > lb ? a[n] : b[n]) == '/';
}

/*
 * The lines of the mount table whose mount point is a watched PATH, above
 * one or below one, folded into one number: the mounts and unmounts the
 * pass cares about change it; those of other filesystems (containers,
 * automounts, another loop device) do not, so a busy host does not make
 * the keeper plan again at each of them.
 */
static uint64_t mounts_stamp(const struct mount_watch *watch)
{
	FILE *table = fopen("/proc/self/mountinfo", "re");
	uint64_t hash = FNV_OFFSET;
	char **escaped = calloc(watch->now.n + 1, sizeof(*escaped));
	char *line = NULL, mount_point[4096];
	size_t cap = 0, i;

	if (!table || !escaped)
		goto out; /* every change is one, then */
	for (i = 0; i < watch->now.n; i++)
		escaped[i] = mountinfo_escape(watch->now.items[i].path);
	while (getline(&line, &cap, table) > 0) {
		bool relevant = false;

		/* ID PARENT MAJOR:MINOR ROOT MOUNT-POINT ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mount_point) != 1)
			continue;
		for (i = 0; i < watch->now.n && !relevant; i++)
			relevant = !escaped[i] ||
				   on_one_branch(mount_point, escaped[i]);
		for (i = 0; relevant && line[i]; i++)
			hash = (hash ^ (unsigned char)line[i]) * FNV_PRIME;
	}
out:
	if (table)
		fclose(table);
	for (i = 0; escaped && i < watch->now.n; i++)
		free(escaped[i]);
	free(escaped);
	free(line);
	return hash;
}

/* Tell what the last pass changed in the set of watched filesystems. */
static void tell_watched(const struct mount_watch *watch,
			 const struct watched_list *before)
{
	const struct watched *was;
	size_t i;

	for (i = 0; i < watch->now.n; i++) {
		const struct watched *item = &watch->now.items[i];

		was = watched_find(before, item->path);
		if (item->fs && (!was || !was->fs) && !watch->config->quiet)
			diag_command_path("mount", item->path, "watching");
		else if (!item->fs && was && was->fs && gone(item->errnum))
			diag_command_path("mount", item->path, "no longer on "
					  "btrfs (unmounted?): watching the "
					  "mount table for it");
		else if (!item->fs && !gone(item->errnum) &&
			 (!was || was->fs || was->errnum != item->errnum))
			diag_command_path("mount", item->path, "cannot watch: "
					  "%s: %s", bino_strerror(item->err),
					  strerror(item->errnum));
	}
	for (i = 0; i < before->n; i++) {
		if (before->items[i].fs && !watched_find(&watch->now,
							 before->items[i].path))
			diag_command_path("mount", before->items[i].path,
					  "no longer a PATH to keep (not "
					  "exported now): not watched");
	}
}

/* The clock @clock now, in seconds. */
static double clock_now(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * Whether a paced full pass may run now: the keeper's CPU since the last
 * full pass began is at most a PACE_SHARE-th of the time since (PACE_SHARE).
 */
static bool pace_allows(const struct mount_watch *watch)
{
	double cpu = clock_now(CLOCK_PROCESS_CPUTIME_ID) - watch->full_cpu;

	return cpu * PACE_SHARE <= clock_now(CLOCK_MONOTONIC) - watch->full_at;
}

/* Run a full @pass, the watches it adds replacing the last pass's; its exit status. */
static int watch_pass(struct mount_watch *watch, mount_pass_fn *pass,
		      void *data)
{
	struct watched_list before = watch->now;
	int status;

	watch->full_at = clock_now(CLOCK_MONOTONIC);
	watch->full_cpu = clock_now(CLOCK_PROCESS_CPUTIME_ID);
	watch->pending = false;
	watch->whole = false;
	watch->quick_since = false;

	watch->mounts_stamp = mounts_stamp(watch);
	memset(&watch->now, 0, sizeof(watch->now));
	watch->exports_stamp = exports_stamp(watch->config);
	watch->look_again = false;
	status = pass(watch, NULL, data);
	fflush(stdout);
	if (watch->failed_add) {
		diag_message("mount: %s", strerror(ENOMEM));
		watch->failed_add = false;
	}
	tell_watched(watch, &before);
	watched_list_release(&before);
	return status;
}

/*
 * A quick pass for the subvolumes created below @item's PATH.  When it
 * could not reach one yet, each is kept for the next tick's, RETRY_PASSES
 * times at most (the pass does not say which: those it planned are left
 * out at no cost but the lookup of their link).  The mount table it
 * changes is stamped again, unless it had changed before it: its own
 * mounts are no reason for a full pass.
 */
static void watch_quick(struct mount_watch *watch, struct watched *item,
			mount_pass_fn *pass, void *data)
{
	struct mount_quick quick = { .path = item->path, .ids = item->ids,
				     .n = item->n_ids };
	bool table_same = mounts_stamp(watch) == watch->mounts_stamp;
	bool full_again = watch->look_again; /* the full pass's own request */
	unsigned least = RETRY_PASSES;
	size_t i, kept = 0;

	watch->look_again = false;
	watch->quick_since = true;
	(void)pass(watch, &quick, data);
	fflush(stdout);
	if (table_same)
		watch->mounts_stamp = mounts_stamp(watch);
	for (i = 0; watch->look_again && i < item->n_ids; i++) {
		if (++item->tries[i] > RETRY_PASSES)
			continue;
		if (item->tries[i] < least)
			least = item->tries[i];
		item->ids[kept] = item->ids[i];
		item->tries[kept++] = item->tries[i];
	}
	item->n_ids = kept;
	item->retry_at = clock_now(CLOCK_MONOTONIC) +
			 RETRY_FIRST_MS / 1000.0 * (1U << (least - 1));
	watch->look_again = full_again;
}

/* Keep the IDs @item's last look reported created, for its quick pass. */
static void watched_take_added(struct mount_watch *watch, struct watched *item)
{
	size_t n = bino_fswatch_added_count(item->fs), i;

	if (ARRAY_RESERVE(item->ids, item->cap_ids, item->n_ids + n) != 0 ||
	    ARRAY_RESERVE(item->tries, item->cap_tries, item->n_ids + n) != 0) {
		watch->pending = true; /* a full pass will see them */
		return;
	}
	for (i = 0; i < n; i++) {
		item->ids[item->n_ids] = bino_fswatch_added_id(item->fs, i);
		item->tries[item->n_ids++] = 0;
	}
	item->retry_at = 0; /* at once */
}

/*
 * Look at the watched filesystems and the exports: a full pass pending
 * for any change but creations, which each watched PATH keeps for its
 * quick pass.  While a full pass is pending, only creations are looked
 * for (bino_fswatch_check_added(): the full look reads every link, some
 * 40 MB at 100,000 subvolumes).
 */
static void watch_look(struct mount_watch *watch)
{
	enum bino_fswatch_change change;
	enum bino_error err;
	size_t i;

	for (i = 0; i < watch->now.n; i++) {
		struct watched *item = &watch->now.items[i];

		if (!item->fs)
			continue;
		err = watch->pending ? bino_fswatch_check_added(item->fs, &change)
				     : bino_fswatch_check(item->fs, &change);
		/* A look that fails (unmounted): the next pass tells why. */
		if (err != BINO_OK || change == BINO_FSWATCH_CHANGED)
			watch->pending = true;
		if (err == BINO_OK && bino_fswatch_added_count(item->fs))
			watched_take_added(watch, item);
	}
	if (exports_stamp(watch->config) != watch->exports_stamp)
		watch->pending = true;
}

/*
 * SIGTERM or SIGINT outside a step: nothing is half done (a step blocks
 * them), and what stdout holds was flushed when the last step was.
 */
static void end_now(int signo)
{
	static const char term[] = PROGRAM_NAME ": mount: stopped by SIGTERM\n";
	static const char intr[] = PROGRAM_NAME ": mount: stopped by SIGINT\n";

	/* write(2): what a signal handler may call. */
	if (signo == SIGTERM)
		(void)!write(STDERR_FILENO, term, sizeof(term) - 1);
	else
		(void)!write(STDERR_FILENO, intr, sizeof(intr) - 1);
	_exit(EXIT_CLEAN);
}

/*
 * SIGHUP kicks the watch through a signalfd; SIGTERM and SIGINT end it at
 * once (end_now()), unless a step is being carried out.  Returns 0, or -1
 * with errno set.
 */
static int watch_open(struct mount_watch *watch)
{
	struct sigaction action = { .sa_handler = end_now };
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0 ||
	    sigaction(SIGTERM, &action, NULL) != 0 ||
	    sigaction(SIGINT, &action, NULL) != 0)
		return -1;
	watch->signal_fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
	if (watch->signal_fd < 0)
		return -1;
	watch->mountinfo_fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (watch->mountinfo_fd < 0) {
		int errnum = errno;

		close(watch->signal_fd);
		errno = errnum;
		return -1;
	}
	return 0;
}

static void watch_close(struct mount_watch *watch)
{
	watched_list_release(&watch->now);
	close(watch->mountinfo_fd);
	close(watch->signal_fd);
}

/*
 * The signals waiting: whether one ends the watch; *@kick set for SIGHUP.
 */
static bool read_signals(int fd, bool *kick)
{
	struct signalfd_siginfo info;
	bool stop = false;

	while (read(fd, &info, sizeof(info)) == (ssize_t)sizeof(info)) {
		if (info.ssi_signo == SIGHUP)
			*kick = true;
		else
			stop = true;
	}
	return stop;
}

void mount_watch_acting(struct mount_watch *watch, bool acting)
{
	sigset_t set;

	(void)watch;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	if (acting) {
		sigprocmask(SIG_BLOCK, &set, NULL);
	} else {
		/* What the step printed is not lost by end_now()'s _exit(). */
		fflush(stdout);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
	}
}

/* Whether the last full pass is older than FULL_PASS_SECONDS, with quick passes since. */
static bool full_pass_due(const struct mount_watch *watch)
{
	return watch->quick_since &&
	       clock_now(CLOCK_MONOTONIC) - watch->full_at >= FULL_PASS_SECONDS;
}

/*
 * How long poll(2) may wait, in ms: until the next look, or the next
 * quick pass made again.
 */
static int watch_timeout(const struct mount_watch *watch)
{
	double now = clock_now(CLOCK_MONOTONIC), until = watch->next_look;
	size_t i;

	for (i = 0; i < watch->now.n; i++) {
		if (watch->now.items[i].n_ids && watch->now.items[i].retry_at < until)
			until = watch->now.items[i].retry_at;
	}
	return until <= now ? 0 : (int)((until - now) * 1000) + 1;
}

/*
 * After a look: whether a full pass is due (a change, SIGHUP, a quick pass
 * that could not plan, FULL_PASS_SECONDS, or the last full pass's retry).
 */
static void watch_due(struct mount_watch *watch)
{
	if (watch->pending || watch->whole || full_pass_due(watch)) {
		watch->retries = 0;
		watch->pending = true;
	} else if (watch->look_again && watch->retries < RETRY_PASSES) {
		watch->retries++;
		watch->pending = true;
	}
}

/* One wake of the watch after poll(2): the looks and passes it calls for. */
static void watch_tick(struct mount_watch *watch, const struct pollfd fds[2],
		       bool again, mount_pass_fn *pass, void *data)
{
	double now = clock_now(CLOCK_MONOTONIC);
	bool look = now >= watch->next_look;
	size_t i;

	if ((fds[1].revents & (POLLPRI | POLLERR)) &&
	    mounts_stamp(watch) != watch->mounts_stamp)
		again = true;
	if (look) {
		watch->next_look = now + TICK_MS / 1000.0;
		watch_look(watch);
	}
	for (i = 0; i < watch->now.n; i++) {
		struct watched *item = &watch->now.items[i];

		if (item->n_ids && now >= item->retry_at)
			watch_quick(watch, item, pass, data);
	}
	if (look)
		watch_due(watch);
	if (watch->pending && pace_allows(watch))
		again = true;
	if (again)
		watch_pass(watch, pass, data);
}

int mount_watch_run(const struct mount_watch_config *config,
		    mount_pass_fn *pass, void *data)
{
	struct mount_watch watch = { .config = config };
	struct pollfd fds[2];
	int status;

	if (watch_open(&watch) != 0) {
		diag_message("mount: cannot watch: %s", strerror(errno));
		return EXIT_USAGE;
	}
	status = watch_pass(&watch, pass, data);
	if (status == EXIT_USAGE)
		goto out_close;
	watch.next_look = clock_now(CLOCK_MONOTONIC) + TICK_MS / 1000.0;
	fds[0] = (struct pollfd){ .fd = watch.signal_fd, .events = POLLIN };
	fds[1] = (struct pollfd){ .fd = watch.mountinfo_fd, .events = POLLPRI };
	for (;;) {
		bool again = false;

		if (poll(fds, 2, watch_timeout(&watch)) < 0 && errno != EINTR) {
			diag_message("mount: stopped: cannot watch: %s",
				     strerror(errno));
			status = EXIT_USAGE;
			break;
		}
		if ((fds[0].revents & POLLIN) &&
		    read_signals(watch.signal_fd, &again)) {
			status = EXIT_CLEAN;
			break;
		}
		watch_tick(&watch, fds, again, pass, data);
	}
out_close:
	watch_close(&watch);
	return status;
}
