/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library has no global state: separate walkers in separate threads,
 * over the same tree at the same time, each see exactly what one walker sees
 * alone.  A walk's own helper threads (bino_walk_set_threads()) read
 * directories ahead of it and change nothing but time: not the entries, not
 * their order, not what pruning, depth limits or post-order visits give, and
 * a walk ended early leaves nothing open.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "btrfsino.h"

#define THREADS 4
#define DIRS 20
#define FILES 50

static char root[64];

static void build_tree(void)
{
	char path[256];
	int d, f;

	strcpy(root, "/tmp/bino-threads.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	for (d = 0; d < DIRS; d++) {
		snprintf(path, sizeof(path), "%s/d%d", root, d);
		cr_assert_eq(mkdir(path, 0755), 0);
		for (f = 0; f < FILES; f++) {
			int fd;

			snprintf(path, sizeof(path), "%s/d%d/f%d", root, d, f);
			fd = open(path, O_CREAT | O_WRONLY, 0644);
			cr_assert_geq(fd, 0);
			close(fd);
		}
	}
}

static void remove_tree(void)
{
	char command[128];

	snprintf(command, sizeof(command), "rm -rf '%s'", root);
	cr_assert_eq(system(command), 0);
}

/* The sum of the inode numbers and the entry count seen by one walk. */
struct walk_digest {
	unsigned long long ino_sum;
	size_t entries;
	enum bino_error error;
};

static void *walk_once(void *arg)
{
	struct walk_digest *digest = arg;
	const char *paths[] = { root };
	struct bino_walk *walk;
	struct bino_entry *entry;

	digest->error = bino_walk_create(paths, 1, 0, &walk);
	if (digest->error)
		return NULL;
	while ((digest->error = bino_walk_next(walk, &entry)) == BINO_OK) {
		digest->ino_sum += bino_entry_key(entry).ino;
		digest->entries++;
	}
	bino_walk_destroy(walk);
	return NULL;
}

Test(walk_threads, concurrent_walkers_each_see_the_whole_tree,
     .init = build_tree, .fini = remove_tree)
{
	struct walk_digest alone = { 0 }, together[THREADS];
	pthread_t threads[THREADS];
	int i;

	walk_once(&alone);
	cr_assert_eq(alone.error, BINO_ERROR_STOP_ITERATION);
	cr_assert_eq(alone.entries, 1 + DIRS + DIRS * FILES);
	memset(together, 0, sizeof(together));
	for (i = 0; i < THREADS; i++)
		cr_assert_eq(pthread_create(&threads[i], NULL, walk_once,
					    &together[i]), 0);
	for (i = 0; i < THREADS; i++) {
		cr_assert_eq(pthread_join(threads[i], NULL), 0);
		cr_assert_eq(together[i].error, BINO_ERROR_STOP_ITERATION);
		cr_assert_eq(together[i].entries, alone.entries);
		cr_assert_eq(together[i].ino_sum, alone.ino_sum);
	}
}

/* A walk of root with @threads (helpers and the caller's), @flags, @max_depth. */
static struct bino_walk *walk_of_root(int threads, int flags, int max_depth)
{
	const char *paths[] = { root };
	struct bino_walk *walk;

	cr_assert_eq(bino_walk_create(paths, 1, flags, &walk), BINO_OK);
	cr_assert_eq(bino_walk_set_threads(walk, threads), BINO_OK);
	cr_assert_eq(bino_walk_set_max_depth(walk, max_depth), BINO_OK);
	return walk;
}

/* Text written to a stream in memory, for comparing walks. */
struct listing {
	FILE *stream;
	char *text;
	size_t size;
};

static void listing_open(struct listing *listing)
{
	listing->text = NULL;
	listing->size = 0;
	listing->stream = open_memstream(&listing->text, &listing->size);
	cr_assert_not_null(listing->stream);
}

/* The text written; the caller frees it. */
static char *listing_close(struct listing *listing)
{
	cr_assert_eq(fclose(listing->stream), 0);
	return listing->text;
}

/* An entry as one line: event, visit, inode, path. */
static void listing_add(struct listing *listing, struct bino_entry *entry)
{
	fprintf(listing->stream, "%d %d %llu %s\n", bino_entry_event(entry),
		bino_entry_visit(entry),
		(unsigned long long)bino_entry_key(entry).ino,
		bino_entry_path(entry));
}

/* Every entry and visit of a walk, in order; "p" directories pruned if @prune. */
static char *walk_listing_with(int threads, int flags, int max_depth,
			       bool prune)
{
	struct bino_walk *walk = walk_of_root(threads, flags, max_depth);
	struct bino_entry *entry;
	struct listing listing;

	listing_open(&listing);
	while (bino_walk_next(walk, &entry) == BINO_OK) {
		listing_add(&listing, entry);
		if (prune && bino_entry_name(entry)[0] == 'p')
			bino_walk_prune(walk);
	}
	bino_walk_destroy(walk);
	return listing_close(&listing);
}

static char *walk_listing(int threads)
{
	return walk_listing_with(threads, 0, -1, false);
}

Test(walk_threads, read_ahead_threads_change_neither_entries_nor_order,
     .init = build_tree, .fini = remove_tree)
{
	char *alone = walk_listing(1);
	char *helped = walk_listing(4);

	cr_assert_str_eq(helped, alone);
	free(alone);
	free(helped);
}

Test(walk_threads, thread_count_is_refused_below_one_and_after_the_start,
     .init = build_tree, .fini = remove_tree)
{
	const char *paths[] = { root };
	struct bino_walk *walk;
	struct bino_entry *entry;

	cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
	cr_assert_eq(bino_walk_set_threads(walk, 0), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_walk_set_threads(walk, 2), BINO_OK);
	cr_assert_eq(bino_walk_next(walk, &entry), BINO_OK);
	cr_assert_eq(bino_walk_set_threads(walk, 3), BINO_ERROR_INVALID_ARGUMENT);
	bino_walk_destroy(walk);
}

/* A tree deeper than the helpers' bound: FANOUT^DEPTH directories, files in each. */
#define DEEP_FANOUT 3
#define DEEP_LEVELS 6
#define DEEP_FILES 4

static void build_level(const char *dir, int level)
{
	char *path;
	int i;

	for (i = 0; i < DEEP_FILES; i++) {
		int fd;

		cr_assert_gt(asprintf(&path, "%s/f%d", dir, i), 0);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		cr_assert_geq(fd, 0);
		close(fd);
		free(path);
	}
	if (level == DEEP_LEVELS)
		return;
	for (i = 0; i < DEEP_FANOUT; i++) {
		/* "p" directories are the ones the walks below prune. */
		cr_assert_gt(asprintf(&path, "%s/%c%d", dir, i == 1 ? 'p' : 'd', i), 0);
		cr_assert_eq(mkdir(path, 0755), 0);
		build_level(path, level + 1);
		free(path);
	}
}

static void build_deep_tree(void)
{
	strcpy(root, "/tmp/bino-threads.XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	build_level(root, 1);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

Test(walk_threads, helpers_reading_a_deep_tree_change_neither_entries_nor_order,
     .init = build_deep_tree, .fini = remove_tree)
{
	char *alone = walk_listing_with(1, 0, -1, false);
	char *helped = walk_listing_with(3, 0, -1, false);
	size_t dirs = 1, level_dirs = 1;
	int level;

	for (level = 1; level < DEEP_LEVELS; level++) {
		level_dirs *= DEEP_FANOUT;
		dirs += level_dirs;
	}
	cr_assert_eq(count_lines(alone), dirs + dirs * DEEP_FILES);
	cr_assert_str_eq(helped, alone);
	free(alone);
	free(helped);
}

Test(walk_threads, helpers_change_nothing_under_prune_depth_limit_and_post_order,
     .init = build_deep_tree, .fini = remove_tree)
{
	int flags[] = { 0, BINO_WALK_POST_ORDER };
	int depths[] = { -1, 2, 4 };
	size_t f, d;

	for (f = 0; f < sizeof(flags) / sizeof(flags[0]); f++) {
		for (d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
			char *alone = walk_listing_with(1, flags[f], depths[d], true);
			char *helped = walk_listing_with(4, flags[f], depths[d], true);

			cr_assert_str_eq(helped, alone,
					 "flags %d, max depth %d", flags[f],
					 depths[d]);
			free(alone);
			free(helped);
		}
	}
}

/* Open file descriptors of this process. */
static int open_fds(void)
{
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	cr_assert_not_null(dir);
	while (readdir(dir))
		n++;
	closedir(dir);
	return n;
}

Test(walk_threads, walk_ended_early_with_directories_read_ahead_leaves_no_fd_open,
     .init = build_deep_tree, .fini = remove_tree)
{
	const char *paths[] = { root };
	int before = open_fds();
	int stop;

	for (stop = 1; stop < 200; stop += 37) {
		struct bino_walk *walk;
		struct bino_entry *entry;
		int n = 0;

		cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
		cr_assert_eq(bino_walk_set_threads(walk, 4), BINO_OK);
		while (n++ < stop && bino_walk_next(walk, &entry) == BINO_OK)
			;
		bino_walk_destroy(walk);
		cr_assert_eq(open_fds(), before, "after %d entries", stop);
	}
}

/*
 * One walk with helpers that, once they are ahead, finds no fd left: the
 * caller took them all.  Its listing, as walk_listing_with() writes it.
 */
static char *walk_listing_starved(void)
{
	struct bino_walk *walk = walk_of_root(4, 0, -1);
	struct bino_entry *entry;
	struct listing listing;
	int fds[200], n_fds = 0;

	listing_open(&listing);
	while (bino_walk_next(walk, &entry) == BINO_OK) {
		cr_assert_neq(bino_entry_event(entry), BINO_EVENT_ERROR,
			      "%s: %s", bino_entry_path(entry),
			      strerror(bino_entry_errno(entry)));
		listing_add(&listing, entry);
		if (n_fds == 0 && bino_entry_depth(entry) == DEEP_LEVELS - 1) {
			int fd;

			while (n_fds < 200 && (fd = open("/dev/null", O_RDONLY)) >= 0)
				fds[n_fds++] = fd;
			cr_assert_gt(n_fds, 0);
		}
	}
	bino_walk_destroy(walk);
	cr_assert_gt(n_fds, 0);
	while (n_fds > 0)
		close(fds[--n_fds]);
	return listing_close(&listing);
}

Test(walk_threads, caller_taking_every_spare_fd_mid_walk_still_gets_every_entry,
     .init = build_deep_tree, .fini = remove_tree)
{
	char *alone = walk_listing_with(1, 0, -1, false);
	struct rlimit limit;
	int round;

	/* The soft limit only: valgrind refuses a change of the hard one. */
	cr_assert_eq(getrlimit(RLIMIT_NOFILE, &limit), 0);
	limit.rlim_cur = 160;
	cr_assert_eq(setrlimit(RLIMIT_NOFILE, &limit), 0);
	/* Where the helpers are when the fds run out varies: several rounds. */
	for (round = 0; round < 10; round++) {
		char *listing = walk_listing_starved();

		cr_assert_str_eq(listing, alone, "round %d", round);
		free(listing);
	}
	free(alone);
}

/* Every entry with what bino_entry_stat() gives for it, as lines. */
static char *stat_listing(int threads, int flags)
{
	struct bino_walk *walk = walk_of_root(threads, flags, -1);
	struct bino_entry *entry;
	struct listing listing;

	listing_open(&listing);
	while (bino_walk_next(walk, &entry) == BINO_OK) {
		struct bino_stat st;

		cr_assert_eq(bino_entry_stat(entry, &st), BINO_OK, "%s",
			     bino_entry_path(entry));
		fprintf(listing.stream, "%s %o %u %llu %lld.%09u\n",
			bino_entry_path(entry), st.mode, (unsigned)st.nlink,
			(unsigned long long)st.size, (long long)st.mtime.sec,
			(unsigned)st.mtime.nsec);
	}
	bino_walk_destroy(walk);
	return listing_close(&listing);
}

Test(walk_threads, entries_stat_ahead_by_helpers_equal_the_callers_own_stat,
     .init = build_deep_tree, .fini = remove_tree)
{
	char path[600], other[600];
	char *alone, *ahead;
	int fd;

	/* Sizes and link counts that differ from file to file. */
	snprintf(path, sizeof(path), "%s/d0/f1", root);
	fd = open(path, O_WRONLY);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, "data", 4), 4);
	close(fd);
	snprintf(path, sizeof(path), "%s/d0/d0/f0", root);
	snprintf(other, sizeof(other), "%s/d0/d0/f9", root);
	cr_assert_eq(link(path, other), 0);
	/* lstat, not stat: a link to the file with data. */
	snprintf(other, sizeof(other), "%s/d0/d0/link", root);
	cr_assert_eq(symlink("../f1", other), 0);
	alone = stat_listing(1, 0);
	ahead = stat_listing(4, BINO_WALK_STAT_AHEAD);
	cr_assert_str_eq(ahead, alone);
	free(alone);
	free(ahead);
}
