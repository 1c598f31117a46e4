/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Names on Linux are any bytes but '/' and NUL; output must not lose or
 * confuse any of them.  JSON needs valid UTF-8 (json-c passes bytes through
 * unchecked), so invalid sequences are replaced and the raw bytes kept in
 * base64 beside; text output escapes what would break a line or be ambiguous.
 */
#include "escape.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at @s (at most @len bytes), or 0. */
static size_t utf8_sequence_length(const unsigned char *s, size_t len)
{
	uint32_t cp;
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * Whether each byte of @s is @plain, or part of a valid multibyte UTF-8
 * sequence: the one scan of bino__utf8_valid() and bino__text_needs_escape().
 */
static bool utf8_all(const char *s, size_t len, bool (*plain)(unsigned char))
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n;

		if (plain(p[i])) { /* most names are ASCII: skip the call */
			i++;
			continue;
		}
		n = utf8_sequence_length(p + i, len - i);
		if (n < 2)
			return false;
		i += n;
	}
	return true;
}

static bool is_ascii(unsigned char byte)
{
	return byte < 0x80;
}

bool bino__utf8_valid(const char *s, size_t len)
{
	return utf8_all(s, len, is_ascii);
}

/*
 * @s copied with valid multibyte UTF-8 sequences kept as they are and each
 * other byte (ASCII, or the first of an invalid sequence) written by
 * @write_byte, which writes at most @worst bytes and returns how many; the
 * one loop of bino__utf8_sanitize() and bino__text_escape().  malloc'ed,
 * NUL-ended, NULL on allocation failure.
 */
static char *utf8_rewrite(const char *s, size_t len, size_t worst,
			  size_t (*write_byte)(unsigned char byte, bool ascii,
					       char *out))
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = malloc(len * worst + 1);
	size_t i = 0, o = 0;

	if (!out)
		return NULL;
	while (i < len) {
		size_t n = utf8_sequence_length(p + i, len - i);

		if (n > 1) {
			memcpy(out + o, p + i, n);
			o += n;
			i += n;
			continue;
		}
		o += write_byte(p[i], n == 1, out + o);
		i++;
	}
	out[o] = '\0';
	return out;
}

/* An ASCII byte as it is, an invalid one as U+FFFD (3 bytes). */
static size_t sanitize_byte(unsigned char byte, bool ascii, char *out)
{
	if (ascii) {
		out[0] = (char)byte;
		return 1;
	}
	memcpy(out, "\xef\xbf\xbd", 3);
	return 3;
}

char *bino__utf8_sanitize(const char *s, size_t len)
{
	return utf8_rewrite(s, len, 3, sanitize_byte);
}

char *bino__base64_encode(const unsigned char *data, size_t len)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	char *out = malloc((len + 2) / 3 * 4 + 1);
	size_t i, o = 0;

	if (!out)
		return NULL;
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)data[i] << 16 | (uint32_t)data[i + 1] << 8 |
			     data[i + 2];

		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = alphabet[(v >> 6) & 63];
		out[o++] = alphabet[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)data[i] << 16;

		if (i + 1 < len)
			v |= (uint32_t)data[i + 1] << 8;
		out[o++] = alphabet[v >> 18];
		out[o++] = alphabet[(v >> 12) & 63];
		out[o++] = i + 1 < len ? alphabet[(v >> 6) & 63] : '=';
		out[o++] = '=';
	}
	out[o] = '\0';
	return out;
}

/* A byte bino__text_escape() keeps as it is. */
static bool is_text_plain(unsigned char byte)
{
	return byte >= 0x20 && byte < 0x7f && byte != '\\';
}

bool bino__text_needs_escape(const char *s, size_t len)
{
	return !utf8_all(s, len, is_text_plain);
}

/* A byte as one line of text shows it: itself, \\, \n, \t or \xHH (4 bytes). */
static size_t escape_byte(unsigned char byte, bool ascii, char *out)
{
	switch (byte) {
	case '\\':
		memcpy(out, "\\\\", 2);
		return 2;
	case '\n':
		memcpy(out, "\\n", 2);
		return 2;
	case '\t':
		memcpy(out, "\\t", 2);
		return 2;
	default:
		if (ascii && byte >= 0x20 && byte != 0x7f) {
			out[0] = (char)byte;
			return 1;
		}
		snprintf(out, 5, "\\x%02x", byte);
		return 4;
	}
}

char *bino__text_escape(const char *s, size_t len)
{
	return utf8_rewrite(s, len, 4, escape_byte);
}

void bino__unescape_octal(char *s)
{
	char *w = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}
