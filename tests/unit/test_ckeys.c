/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The audit's client key table: inode sets, identities, collided keys, groups. */
#include <criterion/criterion.h>

#include "ckeys.h"

static struct ckey_table *table;

static void setup(void)
{
	cr_assert_eq(bino__ckey_table_create(&table), BINO_OK);
}

static void teardown(void)
{
	bino__ckey_table_destroy(table);
}

TestSuite(inoset);
TestSuite(ckeys, .init = setup, .fini = teardown);

Test(inoset, holds_numbers_above_2_to_the_32_apart_from_their_low_bits)
{
	struct inoset set = { 0 };
	uint64_t low = 257, high = (UINT64_C(7) << 32) | 257;

	cr_assert_eq(bino__inoset_add(&set, low), 1);
	cr_assert(bino__inoset_contains(&set, low));
	cr_assert_not(bino__inoset_contains(&set, high));
	cr_assert_eq(bino__inoset_add(&set, high), 1);
	cr_assert_eq(bino__inoset_add(&set, high), 0);
	cr_assert_eq(bino__inoset_add(&set, low), 0);
	cr_assert(bino__inoset_contains(&set, high));
	cr_assert_not(bino__inoset_contains(&set, UINT64_MAX));
	bino__inoset_clear(&set);
	cr_assert_not(bino__inoset_contains(&set, low));
	bino__inoset_clear(&set); /* twice is fine */
}

Test(ckeys, an_identity_is_the_whole_triple)
{
	uint32_t a, same, other_fs, other_dev, other_subvol;

	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &a), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 1, 10, 256, &other_fs), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 11, 256, &other_dev), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 10, 257, &other_subvol),
		     BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &same), BINO_OK);
	cr_assert_eq(a, same);
	cr_assert_neq(a, other_fs);
	cr_assert_neq(a, other_dev);
	cr_assert_neq(a, other_subvol);
	cr_assert_eq(bino__ckey_identity_get(table, other_subvol)->subvolid, 257);
	cr_assert_eq(bino__ckey_identity_get(table, other_fs)->client_fs, 1);
}

Test(ckeys, a_key_met_once_has_no_first_identity_and_no_group)
{
	struct ckey_group *group = (void *)1;
	uint32_t id, first = 0;

	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &id), BINO_OK);
	cr_assert_not(bino__ckey_table_seen(table, 0, 300));
	cr_assert_eq(bino__ckey_table_add(table, id, 300, &first, &group),
		     BINO_OK);
	cr_assert_null(group);
	cr_assert_eq(first, CKEY_NONE);
	cr_assert(bino__ckey_table_seen(table, 0, 300));
	cr_assert_null(bino__ckey_table_find(table, 0, 300));
	cr_assert_eq(bino__ckey_table_group_count(table), 0);
}

Test(ckeys, a_key_met_again_names_its_first_identity_without_a_group)
{
	struct ckey_group *group;
	uint32_t a, b, c, first;

	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &a), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 10, 257, &b), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 10, 258, &c), BINO_OK);
	/* Other keys first met in a and c, so that b's is found by search. */
	cr_assert_eq(bino__ckey_table_add(table, a, 500, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, b, 400, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, c, 600, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, a, 400, &first, &group),
		     BINO_OK);
	cr_assert_null(group);
	cr_assert_eq(first, b);
	cr_assert_eq(bino__ckey_table_group_count(table), 0);
}

Test(ckeys, a_key_collides_once_with_the_first_other_identity_told)
{
	struct ckey_group *group;
	uint32_t a, b, c, first;
	bool first_time;

	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &a), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 10, 257, &b), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 10, 258, &c), BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, a, 400, &first, &group),
		     BINO_OK);
	cr_assert_not(bino__ckey_table_collided(table, 0, 400));
	cr_assert_eq(bino__ckey_table_add(table, c, 400, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_collide(table, c, 400, &first_time),
		     BINO_OK);
	cr_assert(first_time);
	cr_assert(bino__ckey_table_collided(table, 0, 400));
	cr_assert_eq(bino__ckey_table_collide(table, b, 400, &first_time),
		     BINO_OK);
	cr_assert_not(first_time);
	cr_assert_not(bino__ckey_table_collided(table, 1, 400));
	cr_assert_eq(bino__ckey_table_group(table, 0, 400, first, &group),
		     BINO_OK);
	cr_assert_eq(group->plain.first, a);
	cr_assert_eq(group->plain.other, c);
	cr_assert_geq(group->plain.paths, 2);
	cr_assert_eq(group->link.first, CKEY_NONE);
	cr_assert_eq(group->pending, CKEY_NONE);
	cr_assert_eq(group->first_links, CKEY_FIRST_LINKS_UNKNOWN);
	cr_assert_eq(bino__ckey_table_group_count(table), 1);
}

Test(ckeys, a_group_made_once_is_found_and_names_the_first_identity)
{
	struct ckey_group *group, *again;
	uint32_t a, b, first;

	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &a), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 0, 10, 257, &b), BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, b, 400, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, b, 400, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_group(table, 0, 400, first, &group),
		     BINO_OK);
	cr_assert_eq(group->plain.first, b);
	cr_assert_eq(group->plain.paths, 1);
	cr_assert_eq(group->plain.other, CKEY_NONE);
	cr_assert_eq(bino__ckey_table_add(table, a, 400, &first, &again),
		     BINO_OK);
	cr_assert_eq(again, group);
	cr_assert_eq(first, b);
	cr_assert_eq(bino__ckey_table_group(table, 0, 400, first, &again),
		     BINO_OK);
	cr_assert_eq(again, group);
	cr_assert_eq(bino__ckey_table_find(table, 0, 400), group);
	cr_assert_eq(bino__ckey_table_group_count(table), 1);
}

Test(ckeys, the_same_inode_in_another_client_filesystem_is_another_key)
{
	struct ckey_group *group;
	uint32_t in_0, in_1, first;

	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &in_0), BINO_OK);
	cr_assert_eq(bino__ckey_identity(table, 1, 10, 256, &in_1), BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, in_0, 257, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, in_1, 257, &first, &group),
		     BINO_OK);
	cr_assert_eq(first, CKEY_NONE);
	cr_assert(bino__ckey_table_seen(table, 1, 257));
	cr_assert_not(bino__ckey_table_seen(table, 2, 257));
}

Test(ckeys, a_second_entry_of_the_same_identity_names_it_first)
{
	struct ckey_group *group;
	uint64_t ino = (UINT64_C(1) << 40) + 5;
	uint32_t a, first;

	cr_assert_eq(bino__ckey_identity(table, 0, 10, 256, &a), BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, a, ino, &first, &group),
		     BINO_OK);
	cr_assert_eq(bino__ckey_table_add(table, a, ino, &first, &group),
		     BINO_OK);
	cr_assert_eq(first, a);
}

/*
 * The audit holds an identity, whose inodes with several names it has just
 * read into the identity's set, while the walk goes on into subvolumes that
 * add identities (audit_links_known()): adding them neither moves the held
 * identity nor its set.
 */
Test(ckeys, an_identity_held_while_others_are_added_keeps_its_place_and_links)
{
	struct ckey_identity *held;
	struct inoset *links;
	uint32_t id, other, i;

	cr_assert_eq(bino__ckey_identity(table, 1, 10, 256, &id), BINO_OK);
	held = bino__ckey_identity_get(table, id);
	links = bino__ckey_identity_links(table, id);
	cr_assert_eq(bino__inoset_add(links, 300), 1);
	held->links = CKEY_LINKS_READ;
	for (i = 1; i <= 1000; i++)
		cr_assert_eq(bino__ckey_identity(table, 1, 10, 256 + i, &other),
			     BINO_OK);
	cr_assert_eq(bino__ckey_identity_get(table, id), held);
	cr_assert_eq(bino__ckey_identity_links(table, id), links);
	cr_assert_eq(held->subvolid, 256);
	cr_assert_eq(held->links, CKEY_LINKS_READ);
	cr_assert(bino__inoset_contains(links, 300));
	cr_assert_not(bino__inoset_contains(links, 301));
}
