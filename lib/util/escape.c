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

bool utf8_valid(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n;

		if (p[i] < 0x80) { /* most names are ASCII: skip the call */
			i++;
			continue;
		}
		n = utf8_sequence_length(p + i, len - i);

		if (n == 0)
			return false;
		i += n;
	}
	return true;
}

char *utf8_sanitize(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	/* Each invalid byte becomes 3 bytes (U+FFFD). */
	char *out = malloc(len * 3 + 1);
	size_t i = 0, o = 0;

	if (!out)
		return NULL;
	while (i < len) {
		size_t n = utf8_sequence_length(p + i, len - i);

		if (n == 0) {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
			continue;
		}
		memcpy(out + o, p + i, n);
		o += n;
		i += n;
	}
	out[o] = '\0';
	return out;
}

char *base64_encode(const unsigned char *data, size_t len)
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

bool text_needs_escape(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;

	while (i < len) {
		size_t n;

		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\') {
			i++;
			continue;
		}
		n = utf8_sequence_length(p + i, len - i);
		if (n < 2)
			return true;
		i += n;
	}
	return false;
}

char *text_escape(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	/* The worst case is \xHH for every byte. */
	char *out = malloc(len * 4 + 1);
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
		switch (p[i]) {
		case '\\':
			memcpy(out + o, "\\\\", 2);
			o += 2;
			break;
		case '\n':
			memcpy(out + o, "\\n", 2);
			o += 2;
			break;
		case '\t':
			memcpy(out + o, "\\t", 2);
			o += 2;
			break;
		default:
			if (n == 1 && p[i] >= 0x20 && p[i] != 0x7f) {
				out[o++] = (char)p[i];
			} else {
				snprintf(out + o, 5, "\\x%02x", p[i]);
				o += 4;
			}
		}
		i++;
	}
	out[o] = '\0';
	return out;
}

void unescape_octal(char *s)
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
