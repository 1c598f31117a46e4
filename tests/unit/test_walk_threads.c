/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The library has no global state: separate walkers in separate threads,
 * over the same tree at the same time, each see exactly what one walker sees
 * alone.
 */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Every entry of a walk with @threads, in order, as "ino path" lines. */
static char *walk_listing(int threads)
{
	const char *paths[] = { root };
	struct bino_walk *walk;
	struct bino_entry *entry;
	char *listing = NULL;
	size_t size = 0;
	FILE *stream = open_memstream(&listing, &size);

	cr_assert_eq(bino_walk_create(paths, 1, 0, &walk), BINO_OK);
	cr_assert_eq(bino_walk_set_threads(walk, threads), BINO_OK);
	while (bino_walk_next(walk, &entry) == BINO_OK)
		fprintf(stream, "%llu %s\n",
			(unsigned long long)bino_entry_key(entry).ino,
			bino_entry_path(entry));
	bino_walk_destroy(walk);
	fclose(stream);
	return listing;
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
