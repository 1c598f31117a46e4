/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Byte-exact representations of untrusted names for text and JSON output. */
#ifndef BTRFS_INO_ESCAPE_H
#define BTRFS_INO_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether @len bytes at @s are valid UTF-8 (no overlongs, no surrogates). */
bool bino__utf8_valid(const char *s, size_t len);

/*
 * @s with every invalid UTF-8 sequence replaced by U+FFFD; malloc'ed,
 * NUL-terminated, NULL on allocation failure.
 */
char *bino__utf8_sanitize(const char *s, size_t len);

/* Standard base64 (RFC 4648) of @len bytes; malloc'ed, NULL on failure. */
char *bino__base64_encode(const unsigned char *data, size_t len);

/*
 * @s escaped for one line of text: backslash, control characters and bytes
 * that are not valid UTF-8 become C-style escapes (\\, \n, \t, \xHH), so the
 * result is unambiguous and on one line.  malloc'ed, NULL on failure.
 */
char *bino__text_escape(const char *s, size_t len);

/*
 * Whether bino__text_escape() would change @s: false lets a caller print
 * the bytes as they are, without the copy.
 */
bool bino__text_needs_escape(const char *s, size_t len);

/*
 * Undo the octal escapes of fstab(5) and exports(5) fields in place: "\ooo"
 * (below \400) stands for that byte; other backslashes stay.
 */
void bino__unescape_octal(char *s);

/*
 * The names cli/ and tests/fuzz/ still call (#37 gave the library's symbols
 * one prefix): inline, so no unprefixed symbol is defined.  Remove each
 * once nothing calls it.
 */
static inline bool utf8_valid(const char *s, size_t len)
{
	return bino__utf8_valid(s, len);
}

static inline char *utf8_sanitize(const char *s, size_t len)
{
	return bino__utf8_sanitize(s, len);
}

static inline char *base64_encode(const unsigned char *data, size_t len)
{
	return bino__base64_encode(data, len);
}

static inline char *text_escape(const char *s, size_t len)
{
	return bino__text_escape(s, len);
}

static inline bool text_needs_escape(const char *s, size_t len)
{
	return bino__text_needs_escape(s, len);
}

#endif
