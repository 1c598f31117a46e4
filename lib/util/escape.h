/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Byte-exact representations of untrusted names for text and JSON output. */
#ifndef BTRFS_INO_ESCAPE_H
#define BTRFS_INO_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

/* Whether @len bytes at @s are valid UTF-8 (no overlongs, no surrogates). */
bool utf8_valid(const char *s, size_t len);

/*
 * @s with every invalid UTF-8 sequence replaced by U+FFFD; malloc'ed,
 * NUL-terminated, NULL on allocation failure.
 */
char *utf8_sanitize(const char *s, size_t len);

/* Standard base64 (RFC 4648) of @len bytes; malloc'ed, NULL on failure. */
char *base64_encode(const unsigned char *data, size_t len);

/*
 * @s escaped for one line of text: backslash, control characters and bytes
 * that are not valid UTF-8 become C-style escapes (\\, \n, \t, \xHH), so the
 * result is unambiguous and on one line.  malloc'ed, NULL on failure.
 */
char *text_escape(const char *s, size_t len);

/*
 * Whether text_escape() would change @s: false lets a caller print the bytes
 * as they are, without the copy.
 */
bool text_needs_escape(const char *s, size_t len);

/*
 * Undo the octal escapes of fstab(5) and exports(5) fields in place: "\ooo"
 * (below \400) stands for that byte; other backslashes stay.
 */
void unescape_octal(char *s);

#endif
