/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the CLI's encodings of names (lib/util/escape.c), any
 * bytes in:
 *  - text_escape() is one line of printable bytes and decodes (\\ \n \t
 *    \xHH, nothing else) back to exactly the input;
 *  - utf8_sanitize() is valid UTF-8 (checked here independently, RFC 3629:
 *    no overlongs, surrogates or code points past U+10FFFF), is the input
 *    itself when that was valid, and has the input's length otherwise
 *    accounted for by U+FFFD;
 *  - utf8_valid() agrees with the independent check;
 *  - base64_encode() decodes back to the input.
 * Built by tests/fuzz/run.sh.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

#define CHECK(cond)                                                     \
	do {                                                            \
		if (!(cond))                                            \
			abort();                                        \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* RFC 3629 validity, written from the table in its section 4. */
static bool valid_utf8(const uint8_t *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		uint8_t c = s[i];
		size_t n;
		uint8_t lo = 0x80, hi = 0xbf;

		if (c <= 0x7f) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 2;
		else if (c == 0xe0)
			n = 3, lo = 0xa0;
		else if (c == 0xed)
			n = 3, hi = 0x9f;
		else if (c >= 0xe1 && c <= 0xef)
			n = 3;
		else if (c == 0xf0)
			n = 4, lo = 0x90;
		else if (c == 0xf4)
			n = 4, hi = 0x8f;
		else if (c >= 0xf1 && c <= 0xf3)
			n = 4;
		else
			return false;
		if (i + n > len || s[i + 1] < lo || s[i + 1] > hi)
			return false;
		for (size_t k = 2; k < n; k++)
			if (s[i + k] < 0x80 || s[i + k] > 0xbf)
				return false;
		i += n;
	}
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void check_text_escape(const uint8_t *data, size_t size)
{
	char *text = text_escape((const char *)data, size);
	uint8_t *decoded;
	size_t len, i, o = 0;

	CHECK(text);
	len = strlen(text);
	decoded = malloc(len + 1);
	CHECK(decoded);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		CHECK(c >= 0x20 && c != 0x7f);
		if (c != '\\') {
			decoded[o++] = c;
			continue;
		}
		CHECK(i + 1 < len);
		switch (text[++i]) {
		case '\\':
			decoded[o++] = '\\';
			break;
		case 'n':
			decoded[o++] = '\n';
			break;
		case 't':
			decoded[o++] = '\t';
			break;
		case 'x': {
			int h, l;

			CHECK(i + 2 < len);
			h = hexval(text[i + 1]);
			l = hexval(text[i + 2]);
			CHECK(h >= 0 && l >= 0);
			decoded[o++] = (uint8_t)(h << 4 | l);
			i += 2;
			break;
		}
		default:
			CHECK(0);
		}
	}
	CHECK(o == size && memcmp(decoded, data, size) == 0);
	/* What is left unescaped is valid UTF-8. */
	CHECK(valid_utf8((const uint8_t *)text, len));
	free(decoded);
	free(text);
}

static void check_sanitize(const uint8_t *data, size_t size)
{
	char *clean = utf8_sanitize((const char *)data, size);
	bool valid = valid_utf8(data, size);
	size_t len;

	CHECK(clean);
	len = strlen(clean);
	CHECK(valid_utf8((const uint8_t *)clean, len));
	CHECK(utf8_valid((const char *)data, size) == valid);
	/* A NUL ends the C string early; compare only what precedes it. */
	if (!memchr(data, '\0', size)) {
		if (valid)
			CHECK(len == size && memcmp(clean, data, size) == 0);
		else
			CHECK(strstr(clean, "\xef\xbf\xbd") && len > size);
	}
	free(clean);
}

static int b64val(char c)
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c ? strchr(alphabet, c) : NULL;

	return p ? (int)(p - alphabet) : -1;
}

static void check_base64(const uint8_t *data, size_t size)
{
	char *text = base64_encode(data, size);
	size_t len, i, o = 0;
	uint8_t *decoded;

	CHECK(text);
	len = strlen(text);
	CHECK(len == (size + 2) / 3 * 4);
	decoded = malloc(size + 3);
	CHECK(decoded);
	for (i = 0; i < len; i += 4) {
		int v[4];
		int k, pad = 0;

		for (k = 0; k < 4; k++) {
			if (text[i + k] == '=') {
				CHECK(i + 4 == len && k >= 2);
				v[k] = 0;
				pad++;
			} else {
				CHECK(!pad);
				v[k] = b64val(text[i + k]);
				CHECK(v[k] >= 0);
			}
		}
		decoded[o++] = (uint8_t)(v[0] << 2 | v[1] >> 4);
		if (pad < 2)
			decoded[o++] = (uint8_t)(v[1] << 4 | v[2] >> 2);
		if (pad < 1)
			decoded[o++] = (uint8_t)(v[2] << 6 | v[3]);
	}
	CHECK(o == size && memcmp(decoded, data, size) == 0);
	free(decoded);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* Names never hold NUL; the encoders take lengths, so try both. */
	check_text_escape(data, size);
	check_sanitize(data, size);
	check_base64(data, size);
	return 0;
}
