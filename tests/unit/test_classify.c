/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit's classification (bino__audit_count(), audit_count.c) without a
 * walk, root or btrfs: each test sets the walk's level stack by hand, as
 * audit_levels.c would, and counts entries in walk order.  Every class
 * (loop, hardlink, plain), the rules that decide how many entries a
 * collision counts, where a loop is counted, which examples are kept, and
 * the order of a subvolume pair (lower ID first: the CLI counts each pair
 * at its higher ID).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_state.h"

#define DEV 42
#define MAX_DEPTH 8

static struct bino_audit_target target;
static struct audit_walk aw;
static struct audit_level levels[MAX_DEPTH];

/* An entry as the walk meets it: where, in which identity, how linked. */
struct meeting {
	const char *path;
	int depth;
	size_t client_fs;
	uint64_t subvolid;
	uint64_t ino;
	bool dir;
	uint64_t nlink; /* 0: 1 */
};

static void setup(void)
{
	memset(&target, 0, sizeof(target));
	memset(&aw, 0, sizeof(aw));
	memset(levels, 0, sizeof(levels));
	aw.target = &target;
	aw.pass = 1;
	aw.levels = levels;
	aw.cap_levels = MAX_DEPTH;
	cr_assert_eq(bino__ckey_table_create(&aw.groups), BINO_OK);
}

static void teardown(void)
{
	size_t c, i;

	for (c = 0; c < BINO_COLLISION_NR; c++) {
		for (i = 0; i < target.n_examples[c]; i++) {
			free(target.examples[c][i].path[0]);
			free(target.examples[c][i].path[1]);
		}
	}
	free(target.pairs);
	for (i = 0; i < aw.n_events; i++)
		free(aw.events[i].path);
	free(aw.events);
	free(aw.waiting);
	bino__ckey_table_destroy(aw.groups);
}

TestSuite(classify, .init = setup, .fini = teardown);

/* Set the level of @m as audit_levels.c does, and count it. */
static void meet(struct meeting m)
{
	struct audit_level *level = &levels[m.depth];

	cr_assert_lt(m.depth, MAX_DEPTH);
	level->client_fs = m.client_fs;
	level->ino = m.ino;
	level->key = (struct bino_key){ DEV, m.subvolid, m.ino };
	level->path_len = strlen(m.path);
	cr_assert_eq(bino__audit_count(&aw, m.path, m.depth, m.dir,
				       m.nlink ? m.nlink : 1),
		     BINO_OK, "counting %s", m.path);
}

/* The count of subvolume pair (@a, @b) in @collision, as stored. */
static uint64_t pair_count(uint64_t a, uint64_t b, enum bino_collision collision)
{
	size_t i;

	for (i = 0; i < target.n_pairs; i++) {
		if (target.pairs[i].subvolid_a == a &&
		    target.pairs[i].subvolid_b == b)
			return target.pairs[i].collisions[collision];
	}
	return 0;
}

/* The export root, directory 256 of subvolume 5, client filesystem 0. */
static void meet_root(void)
{
	meet((struct meeting){ .path = "/e", .subvolid = 5, .ino = 256,
			       .dir = true });
}

Test(classify, one_inode_number_in_two_subvolumes_is_two_plain_collisions)
{
	meet_root();
	meet((struct meeting){ .path = "/e/a", .depth = 1, .subvolid = 5,
			       .ino = 300 });
	meet((struct meeting){ .path = "/e/b", .depth = 1, .subvolid = 5,
			       .ino = 301, .dir = true });
	meet((struct meeting){ .path = "/e/b/a", .depth = 2, .subvolid = 260,
			       .ino = 300 });
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 2);
	cr_assert_eq(target.collisions[BINO_COLLISION_HARDLINK], 0);
	cr_assert_eq(target.collisions[BINO_COLLISION_LOOP], 0);
	cr_assert_eq(pair_count(5, 260, BINO_COLLISION_PLAIN), 2);
}

Test(classify, each_entry_after_the_first_collision_adds_one)
{
	uint64_t subvol;
	char path[32];

	meet_root();
	for (subvol = 260; subvol < 264; subvol++) {
		snprintf(path, sizeof(path), "/e/f%llu",
			 (unsigned long long)subvol);
		meet((struct meeting){ .path = path, .depth = 1,
				       .subvolid = subvol, .ino = 300 });
	}
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 4);
}

Test(classify, the_same_inode_number_in_two_client_filesystems_does_not_collide)
{
	meet_root();
	meet((struct meeting){ .path = "/e/a", .depth = 1, .subvolid = 5,
			       .ino = 300 });
	meet((struct meeting){ .path = "/e/m", .depth = 1, .client_fs = 1,
			       .subvolid = 260, .ino = 256, .dir = true });
	meet((struct meeting){ .path = "/e/m/a", .depth = 2, .client_fs = 1,
			       .subvolid = 260, .ino = 300 });
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 0);
	cr_assert_eq(target.n_pairs, 0);
}

Test(classify, two_names_of_one_inode_do_not_collide)
{
	meet_root();
	meet((struct meeting){ .path = "/e/a", .depth = 1, .subvolid = 5,
			       .ino = 300, .nlink = 2 });
	meet((struct meeting){ .path = "/e/b", .depth = 1, .subvolid = 5,
			       .ino = 300, .nlink = 2 });
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 0);
	cr_assert_eq(target.collisions[BINO_COLLISION_HARDLINK], 0);
}

Test(classify, a_directory_with_an_ancestors_key_is_one_loop)
{
	meet_root();
	meet((struct meeting){ .path = "/e/snap", .depth = 1, .subvolid = 260,
			       .ino = 256, .dir = true });
	cr_assert_eq(target.collisions[BINO_COLLISION_LOOP], 1);
	cr_assert_eq(pair_count(5, 260, BINO_COLLISION_LOOP), 1);
	cr_assert_eq(target.n_examples[BINO_COLLISION_LOOP], 1);
	cr_assert_str_eq(target.examples[BINO_COLLISION_LOOP][0].path[0], "/e");
	cr_assert_str_eq(target.examples[BINO_COLLISION_LOOP][0].path[1],
			 "/e/snap");
}

Test(classify, a_file_with_an_ancestors_key_is_no_loop)
{
	meet_root();
	meet((struct meeting){ .path = "/e/f", .depth = 1, .subvolid = 260,
			       .ino = 256 });
	cr_assert_eq(target.collisions[BINO_COLLISION_LOOP], 0);
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 2);
}

Test(classify, a_loop_is_counted_once_at_the_nearest_ancestor_with_the_key)
{
	meet_root();
	meet((struct meeting){ .path = "/e/s1", .depth = 1, .subvolid = 260,
			       .ino = 256, .dir = true });
	meet((struct meeting){ .path = "/e/s1/s2", .depth = 2, .subvolid = 261,
			       .ino = 256, .dir = true });
	cr_assert_eq(target.collisions[BINO_COLLISION_LOOP], 2);
	cr_assert_eq(pair_count(260, 261, BINO_COLLISION_LOOP), 1);
	cr_assert_eq(pair_count(5, 261, BINO_COLLISION_LOOP), 0);
	cr_assert_str_eq(target.examples[BINO_COLLISION_LOOP][1].path[0],
			 "/e/s1");
}

Test(classify, a_directory_below_a_new_client_filesystem_is_no_loop)
{
	meet_root();
	meet((struct meeting){ .path = "/e/m", .depth = 1, .client_fs = 1,
			       .subvolid = 260, .ino = 256, .dir = true });
	cr_assert_eq(target.collisions[BINO_COLLISION_LOOP], 0);
}

Test(classify, hard_linked_files_of_two_subvolumes_collide_in_both_classes)
{
	meet_root();
	meet((struct meeting){ .path = "/e/a1", .depth = 1, .subvolid = 5,
			       .ino = 300, .nlink = 2 });
	meet((struct meeting){ .path = "/e/a2", .depth = 1, .subvolid = 5,
			       .ino = 300, .nlink = 2 });
	meet((struct meeting){ .path = "/e/b1", .depth = 1, .subvolid = 260,
			       .ino = 300, .nlink = 2 });
	/* The first collision counts every entry of the key met so far. */
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 3);
	cr_assert_eq(target.collisions[BINO_COLLISION_HARDLINK], 3);
	cr_assert_eq(pair_count(5, 260, BINO_COLLISION_HARDLINK), 3);
}

Test(classify, a_file_of_one_link_is_never_a_hardlink_collision)
{
	meet_root();
	meet((struct meeting){ .path = "/e/a1", .depth = 1, .subvolid = 5,
			       .ino = 300, .nlink = 2 });
	meet((struct meeting){ .path = "/e/a2", .depth = 1, .subvolid = 5,
			       .ino = 300, .nlink = 2 });
	meet((struct meeting){ .path = "/e/b", .depth = 1, .subvolid = 260,
			       .ino = 300 });
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 3);
	cr_assert_eq(target.collisions[BINO_COLLISION_HARDLINK], 0);
}

Test(classify, a_hardlink_entry_waits_for_the_first_entrys_nlink_then_counts)
{
	meet_root();
	/* A key's first entry is not stat'ed: its nlink is not known. */
	meet((struct meeting){ .path = "/e/a1", .depth = 1, .subvolid = 5,
			       .ino = 300 });
	meet((struct meeting){ .path = "/e/b1", .depth = 1, .subvolid = 260,
			       .ino = 300, .nlink = 2 });
	cr_assert_eq(target.collisions[BINO_COLLISION_HARDLINK], 0);
	cr_assert_eq(aw.n_waiting, 1);
	cr_assert_eq(aw.waiting[0].client_fs, 0);
	cr_assert_eq(aw.waiting[0].ino, 300);
	/* Another name of the first inode tells its nlink: the wait ends. */
	meet((struct meeting){ .path = "/e/a2", .depth = 1, .subvolid = 5,
			       .ino = 300, .nlink = 2 });
	cr_assert_eq(target.collisions[BINO_COLLISION_HARDLINK], 3);
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 3);
}

Test(classify, a_first_entry_never_met_again_counts_as_one_link)
{
	meet_root();
	meet((struct meeting){ .path = "/e/a1", .depth = 1, .subvolid = 5,
			       .ino = 300 });
	meet((struct meeting){ .path = "/e/b1", .depth = 1, .subvolid = 260,
			       .ino = 300, .nlink = 2 });
	bino__audit_find_start(&aw);
	cr_assert_eq(aw.missing, 2, "the first entry and the example's path");
	cr_assert_eq(bino__audit_find_finish(&aw), BINO_OK);
	cr_assert_eq(target.collisions[BINO_COLLISION_HARDLINK], 0);
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN], 2);
}

Test(classify, a_pair_is_stored_lower_id_first_whatever_the_walk_order)
{
	meet_root();
	meet((struct meeting){ .path = "/e/x", .depth = 1, .subvolid = 300,
			       .ino = 400 });
	meet((struct meeting){ .path = "/e/y", .depth = 1, .subvolid = 260,
			       .ino = 400 });
	cr_assert_eq(target.n_pairs, 1);
	cr_assert_eq(target.pairs[0].subvolid_a, 260);
	cr_assert_eq(target.pairs[0].subvolid_b, 300);
}

Test(classify, a_plain_example_names_the_later_entry_and_leaves_the_first_to_find)
{
	const struct bino_audit_example *example;

	meet_root();
	meet((struct meeting){ .path = "/e/a", .depth = 1, .subvolid = 5,
			       .ino = 300 });
	meet((struct meeting){ .path = "/e/b", .depth = 1, .subvolid = 260,
			       .ino = 300 });
	cr_assert_eq(target.n_examples[BINO_COLLISION_PLAIN], 1);
	example = &target.examples[BINO_COLLISION_PLAIN][0];
	cr_assert_null(example->path[0], "found by the second walk");
	cr_assert_str_eq(example->path[1], "/e/b");
	cr_assert_eq(example->key[0].subvolid, 5);
	cr_assert_eq(example->key[1].subvolid, 260);
}

Test(classify, only_the_first_examples_in_walk_order_are_kept)
{
	char path[32];
	int i;

	meet_root();
	for (i = 0; i < BINO_AUDIT_EXAMPLES_MAX + 5; i++) {
		snprintf(path, sizeof(path), "/e/a%02d", i);
		meet((struct meeting){ .path = path, .depth = 1, .subvolid = 5,
				       .ino = 1000 + i });
	}
	for (i = 0; i < BINO_AUDIT_EXAMPLES_MAX + 5; i++) {
		snprintf(path, sizeof(path), "/e/b%02d", i);
		meet((struct meeting){ .path = path, .depth = 1,
				       .subvolid = 260, .ino = 1000 + i });
	}
	cr_assert_eq(target.collisions[BINO_COLLISION_PLAIN],
		     2 * (BINO_AUDIT_EXAMPLES_MAX + 5));
	cr_assert_eq(target.n_examples[BINO_COLLISION_PLAIN],
		     BINO_AUDIT_EXAMPLES_MAX);
	cr_assert_str_eq(target.examples[BINO_COLLISION_PLAIN][0].path[1],
			 "/e/b00");
	cr_assert_str_eq(target.examples[BINO_COLLISION_PLAIN]
					[BINO_AUDIT_EXAMPLES_MAX - 1].path[1],
			 "/e/b09");
}
