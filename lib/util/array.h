/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Growable arrays: the one overflow-checked way the library makes room in
 * an array of items (after kmod's libshared array).  An array is a typed
 * pointer and a size_t capacity, both the caller's lvalues:
 *
 *	struct thing *things;
 *	size_t n_things, cap_things;
 *
 *	if (ARRAY_RESERVE(things, cap_things, n_things + 1) != 0)
 *		return BINO_ERROR_NO_MEMORY;
 *	things[n_things++] = thing;
 *
 * Growing moves the items: a pointer into the array is invalid after any
 * call that may add to it.  Keep indexes across such calls, or allocate the
 * items separately and keep an array of pointers to them.
 */
#ifndef BINO_ARRAY_H
#define BINO_ARRAY_H

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* The fewest items an array grows to. */
#define ARRAY_MIN_ITEMS 8

/*
 * Make room in *@items (*@cap items of @size bytes) for @need items: the
 * capacity at least doubles, so that appending one at a time costs
 * amortized constant time.  0, or -1 with errno ENOMEM (out of memory, or
 * @need items of @size bytes overflow size_t), *@items and *@cap unchanged:
 * realloc's answer, as util/ knows no enum bino_error (lib/base/internal.h).
 * Use ARRAY_RESERVE(), which keeps the item type.
 */
static inline int bino__array_reserve(void **items, size_t *cap, size_t need,
				      size_t size)
{
	size_t n = *cap;
	void *grown;

	assert(size > 0);
	assert(*items || *cap == 0);
	if (need <= *cap)
		return 0;
	if (n == 0)
		n = ARRAY_MIN_ITEMS / 2;
	do
		n = n > SIZE_MAX / 2 ? need : n * 2;
	while (n < need);
	if (n > SIZE_MAX / size) {
		if (need > SIZE_MAX / size) {
			errno = ENOMEM;
			return -1;
		}
		n = need;
	}
	grown = realloc(*items, n * size);
	if (!grown) {
		errno = ENOMEM;
		return -1;
	}
	*items = grown;
	*cap = n;
	return 0;
}

/*
 * ARRAY_RESERVE(items, cap, need): room for @need items in the array @items
 * (a T * lvalue) of capacity @cap (a size_t lvalue); 0, or -1 with errno
 * ENOMEM and both unchanged.  @items and @cap are evaluated more than once.
 */
#define ARRAY_RESERVE(items, cap, need)                                        \
	__extension__({                                                        \
		void *array_items_ = (items);                                  \
		int array_ret_ = bino__array_reserve(&array_items_, &(cap),    \
						     (need), sizeof(*(items)));\
		(items) = array_items_;                                        \
		array_ret_;                                                    \
	})

#endif
