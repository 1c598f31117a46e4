/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The library's growable array (lib/util/array.h): room, growth, overflow. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdint.h>

#include "array.h"

Test(array, room_for_one_more_keeps_the_items_and_at_least_doubles)
{
	uint64_t *items = NULL;
	size_t n = 0, cap = 0, i;

	for (i = 0; i < 1000; i++) {
		size_t before = cap;

		cr_assert_eq(ARRAY_RESERVE(items, cap, n + 1), 0);
		cr_assert_geq(cap, n + 1);
		if (cap != before)
			cr_assert_geq(cap, 2 * before);
		items[n++] = i * 3;
	}
	for (i = 0; i < n; i++)
		cr_assert_eq(items[i], i * 3);
	free(items);
}

Test(array, room_already_there_changes_nothing)
{
	uint64_t *items = NULL, *before;
	size_t cap = 0;

	cr_assert_eq(ARRAY_RESERVE(items, cap, 5), 0);
	before = items;
	cr_assert_eq(ARRAY_RESERVE(items, cap, cap), 0);
	cr_assert_eq(ARRAY_RESERVE(items, cap, 0), 0);
	cr_assert_eq(items, before);
	free(items);
}

Test(array, room_beyond_what_size_t_can_count_is_refused_and_the_array_kept)
{
	uint64_t *items = NULL, *before;
	size_t cap = 0, kept;

	cr_assert_eq(ARRAY_RESERVE(items, cap, 3), 0);
	items[2] = 42;
	before = items;
	kept = cap;
	errno = 0;
	cr_assert_eq(ARRAY_RESERVE(items, cap, SIZE_MAX / sizeof(*items) + 1), -1);
	cr_assert_eq(errno, ENOMEM);
	cr_assert_eq(ARRAY_RESERVE(items, cap, SIZE_MAX), -1);
	cr_assert_eq(items, before);
	cr_assert_eq(cap, kept);
	cr_assert_eq(items[2], 42);
	free(items);
}
