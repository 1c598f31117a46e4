/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Identity keys and sets: equality of all three fields, set membership. */
#include <criterion/criterion.h>

#include "btrfsino.h"

static struct bino_idset *set;

static void setup(void)
{
	cr_assert_eq(bino_idset_create(&set), BINO_OK);
	cr_assert_not_null(set);
}

static void teardown(void)
{
	bino_idset_destroy(set);
}

TestSuite(idset, .init = setup, .fini = teardown);
TestSuite(key);

Test(key, equal_needs_all_three_fields_equal)
{
	struct bino_key a = { .dev = 1, .subvolid = 256, .ino = 257 };
	struct bino_key same = a, other_dev = a, other_subvol = a,
			other_ino = a;

	other_dev.dev = 2;
	other_subvol.subvolid = 5;
	other_ino.ino = 258;
	cr_assert(bino_key_equal(&a, &same));
	cr_assert_not(bino_key_equal(&a, &other_dev));
	cr_assert_not(bino_key_equal(&a, &other_subvol));
	cr_assert_not(bino_key_equal(&a, &other_ino));
}

Test(idset, a_new_set_is_empty)
{
	struct bino_key key = { 1, 2, 3 };

	cr_assert_eq(bino_idset_count(set), 0);
	cr_assert_not(bino_idset_contains(set, &key));
}

Test(idset, add_of_a_new_key_reports_it_absent_and_counts_it)
{
	struct bino_key key = { 1, 256, 300 };
	bool was_present = true;

	cr_assert_eq(bino_idset_add(set, &key, &was_present), BINO_OK);
	cr_assert_not(was_present);
	cr_assert(bino_idset_contains(set, &key));
	cr_assert_eq(bino_idset_count(set), 1);
}

Test(idset, add_of_a_member_reports_it_present_and_keeps_the_count)
{
	struct bino_key key = { 1, 256, 300 };
	struct bino_key copy = key;
	bool was_present = false;

	cr_assert_eq(bino_idset_add(set, &key, NULL), BINO_OK);
	cr_assert_eq(bino_idset_add(set, &copy, &was_present), BINO_OK);
	cr_assert(was_present);
	cr_assert_eq(bino_idset_count(set), 1);
}

Test(idset, keys_differing_in_one_field_are_distinct_members)
{
	struct bino_key keys[] = {
		{ 1, 256, 300 }, { 2, 256, 300 }, { 1, 257, 300 },
		{ 1, 256, 301 },
	};
	size_t i;

	for (i = 0; i < 4; i++) {
		bool was_present = true;

		cr_assert_eq(bino_idset_add(set, &keys[i], &was_present),
			     BINO_OK);
		cr_assert_not(was_present, "key %zu", i);
	}
	cr_assert_eq(bino_idset_count(set), 4);
}

Test(idset, the_key_is_copied_not_borrowed)
{
	struct bino_key key = { 7, 8, 9 };
	struct bino_key probe = { 7, 8, 9 };

	cr_assert_eq(bino_idset_add(set, &key, NULL), BINO_OK);
	key.ino = 10;
	cr_assert(bino_idset_contains(set, &probe));
	cr_assert_not(bino_idset_contains(set, &key));
}

Test(idset, contains_is_false_for_keys_never_added)
{
	struct bino_key member = { 1, 0, 12 };
	struct bino_key stranger = { 1, 0, 13 };

	cr_assert_eq(bino_idset_add(set, &member, NULL), BINO_OK);
	cr_assert_not(bino_idset_contains(set, &stranger));
}

/* The i'th of many keys; every field varies, and values are large. */
static struct bino_key many_key(uint64_t i)
{
	struct bino_key key = {
		.dev = i % 7,
		.subvolid = 256 + i % 13,
		.ino = (i << 32) + i,
	};

	return key;
}

Test(idset, a_hundred_thousand_keys_round_trip)
{
	const uint64_t n = 100000;
	uint64_t i;

	for (i = 0; i < n; i++) {
		struct bino_key key = many_key(i);
		bool was_present = true;

		cr_assert_eq(bino_idset_add(set, &key, &was_present), BINO_OK);
		cr_assert_not(was_present, "key %lu", (unsigned long)i);
	}
	cr_assert_eq(bino_idset_count(set), n);
	for (i = 0; i < n; i++) {
		struct bino_key key = many_key(i);
		struct bino_key absent = many_key(i + n);
		bool was_present = false;

		cr_assert(bino_idset_contains(set, &key), "key %lu",
			  (unsigned long)i);
		cr_assert_not(bino_idset_contains(set, &absent), "key %lu",
			      (unsigned long)(i + n));
		cr_assert_eq(bino_idset_add(set, &key, &was_present), BINO_OK);
		cr_assert(was_present);
	}
	cr_assert_eq(bino_idset_count(set), n);
}

Test(key, idset_destroy_accepts_null)
{
	bino_idset_destroy(NULL);
}
