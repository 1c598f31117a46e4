/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A growable NUL-terminated byte string. */
#include "strbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "array.h"

bool bino__strbuf_append(struct strbuf *sb, const char *bytes, size_t n)
{
	if (n >= SIZE_MAX - sb->length) {
		errno = ENOMEM;
		return false;
	}
	if (ARRAY_RESERVE(sb->data, sb->capacity, sb->length + n + 1))
		return false;
	if (n)
		memcpy(sb->data + sb->length, bytes, n);
	sb->length += n;
	sb->data[sb->length] = '\0';
	return true;
}

bool bino__strbuf_append_item(struct strbuf *sb, const char *bytes, size_t n)
{
	if (sb->length && !bino__strbuf_append(sb, ",", 1))
		return false;
	return bino__strbuf_append(sb, bytes, n);
}

char *bino__strbuf_steal(struct strbuf *sb)
{
	char *data = sb->data;

	memset(sb, 0, sizeof(*sb));
	return data;
}

char *bino__str_concat(const char *const *parts, size_t n)
{
	size_t len = 0, at = 0, i;
	char *text;

	for (i = 0; i < n; i++) {
		size_t part = strlen(parts[i]);

		if (part >= SIZE_MAX - len) {
			errno = ENOMEM;
			return NULL;
		}
		len += part;
	}
	text = malloc(len + 1);
	if (!text)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t part = strlen(parts[i]);

		memcpy(text + at, parts[i], part);
		at += part;
	}
	text[at] = '\0';
	return text;
}
