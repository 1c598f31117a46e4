/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A growable NUL-terminated byte string (after kmod's libshared strbuf):
 * zero-initialize it, append, then steal the string or free data.
 */
#ifndef BINO_STRBUF_H
#define BINO_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct strbuf {
	char *data; /* NUL-terminated once anything was appended; or NULL */
	size_t length; /* bytes before the NUL */
	size_t capacity; /* bytes allocated at data */
};

/*
 * Append @n bytes at @bytes (which may hold NULs) and a NUL after them.
 * False with errno ENOMEM, @sb unchanged, when out of memory or when the
 * length would overflow size_t.
 */
bool bino__strbuf_append(struct strbuf *sb, const char *bytes, size_t n);

/* As bino__strbuf_append(), after a ',' unless @sb is empty. */
bool bino__strbuf_append_item(struct strbuf *sb, const char *bytes, size_t n);

/*
 * The string (NULL if nothing was appended), which the caller frees; @sb is
 * left empty.
 */
char *bino__strbuf_steal(struct strbuf *sb);

/*
 * The strings of @parts (@n of them) one after the other, allocated, or
 * NULL when out of memory: what asprintf("%s%s...") makes, without a
 * format parsed for each of 100,000 subvolumes.
 */
char *bino__str_concat(const char *const *parts, size_t n);

#endif
