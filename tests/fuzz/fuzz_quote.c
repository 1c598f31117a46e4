/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the quoting of names in the files suggest writes
 * (cli/support/quote.c), any bytes in (up to the first NUL, as names are C strings);
 * each quoting is decoded here by the format's reader and must give back
 * the name, or the format's quote_*_refusal() refused the name:
 *  - fstab fields and exports paths: no blank, control byte, DEL, '#' (nor
 *    '"' for exports) left bare, and \ooo decodes back;
 *  - fstab fields: libmount itself (mnt_table_parse_stream() on the line,
 *    fmemopen'd) reads the target back;
 *  - exports paths not refused: decoded as nfs-utils 2.6.2
 *    support/nfs/xio.c xgettok() does (xgettok_decoded() below: after each
 *    byte, a trailing backslash and three octal digits become their byte,
 *    so a decoded byte takes part in the next test), they give back the
 *    name;
 *  - units and autofs words not refused: no control byte, no line break,
 *    and a unit value neither ends in a blank or backslash nor is invalid
 *    UTF-8;
 *  - comments: one line;
 *  - autofs paths not refused: bare when safe, else a leading '/' bare and
 *    the rest one double-quoted part without '"' that is the name;
 *  - systemd unit values: every '%' doubled;
 *  - mount unit names: only [A-Za-z0-9:_.-] and \xHH, no leading '.', and
 *    '-' as '/', \xHH as the byte give back the path with its slashes
 *    collapsed and trimmed ("-" for the root);
 *  - sh words: one single-quoted word with ' as '\''.
 * Built by tests/fuzz/run.sh.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libmount.h>

#include "escape.h"
#include "quote.h"

#define CHECK(cond)                                                     \
	do {                                                            \
		if (!(cond))                                            \
			abort();                                        \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *quoted(void (*quote)(FILE *, const char *), const char *s,
		    size_t *len)
{
	char *text;
	FILE *out = open_memstream(&text, len);

	CHECK(out);
	quote(out, s);
	CHECK(fclose(out) == 0);
	CHECK(strlen(text) == *len);
	return text;
}

static void check_octal(void (*quote)(FILE *, const char *), const char *s,
			const char *special)
{
	size_t len, i, o = 0;
	char *text = quoted(quote, s, &len);
	char *back = malloc(len + 1);

	CHECK(back);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		CHECK(c > ' ' && c != 0x7f && !strchr(special, c));
		if (c != '\\') {
			back[o++] = (char)c;
			continue;
		}
		CHECK(i + 3 <= len);
		for (int k = 1; k <= 3; k++)
			CHECK(text[i + k] >= '0' && text[i + k] <= '7');
		back[o++] = (char)((text[i + 1] - '0') << 6 |
				   (text[i + 2] - '0') << 3 | (text[i + 3] - '0'));
		i += 3;
	}
	back[o] = '\0';
	CHECK(strcmp(back, s) == 0);
	free(back);
	free(text);
}

/*
 * The word nfs-utils 2.6.2's xgettok() reads from @text (no blanks or
 * quotes in it): each byte appended, then if the word ends in "\ooo"
 * below \400 those four bytes become the one they stand for.
 */
static char *xgettok_decoded(const char *text)
{
	size_t len = strlen(text), i, n = 0;
	char *tok = malloc(len + 1);

	CHECK(tok);
	for (i = 0; i < len; i++) {
		tok[n++] = text[i];
		if (n >= 4 && tok[n - 4] == '\\' &&
		    tok[n - 3] >= '0' && tok[n - 3] <= '7' &&
		    tok[n - 2] >= '0' && tok[n - 2] <= '7' &&
		    tok[n - 1] >= '0' && tok[n - 1] <= '7') {
			int c = (tok[n - 3] - '0') << 6 | (tok[n - 2] - '0') << 3 |
				(tok[n - 1] - '0');

			if (c < 256) {
				n -= 4;
				tok[n++] = (char)c;
			}
		}
	}
	tok[n] = '\0';
	return tok;
}

static void check_exports_as_xgettok(const char *s)
{
	size_t len;
	char *text, *back;

	if (!*s || quote_exports_refusal(s))
		return;
	text = quoted(quote_exports_path, s, &len);
	back = xgettok_decoded(text);
	CHECK(strcmp(back, s) == 0);
	free(back);
	free(text);
}

/* libmount reads the fstab line with @s as its target back as @s. */
static void check_fstab_libmount(const char *s)
{
	struct libmnt_table *tab;
	struct libmnt_fs *fs = NULL;
	char *line = NULL;
	size_t len = 0;
	FILE *f;

	if (!*s)
		return;
	f = open_memstream(&line, &len);
	CHECK(f);
	fputs("UUID=x ", f);
	quote_fstab_field(f, s);
	fputs(" btrfs rw 0 0\n", f);
	CHECK(fclose(f) == 0);
	f = fmemopen(line, len, "r");
	CHECK(f);
	tab = mnt_new_table();
	CHECK(tab);
	CHECK(mnt_table_parse_stream(tab, f, "fuzz") == 0);
	CHECK(mnt_table_get_nents(tab) == 1);
	CHECK(mnt_table_first_fs(tab, &fs) == 0);
	CHECK(strcmp(mnt_fs_get_target(fs), s) == 0);
	mnt_unref_table(tab);
	fclose(f);
	free(line);
}

static bool has_control(const char *text)
{
	for (; *text; text++) {
		if ((unsigned char)*text < ' ' || *text == 0x7f)
			return true;
	}
	return false;
}

static void check_refused_or_one_line(const char *s)
{
	size_t len;
	char *text;

	if (!quote_autofs_refusal(s)) {
		text = quoted(quote_autofs_path, s, &len);
		CHECK(!has_control(text));
		free(text);
	}
	if (!quote_unit_value_refusal(s)) {
		text = quoted(quote_unit_value, s, &len);
		CHECK(!has_control(text) && utf8_valid(text, len));
		CHECK(!len || (text[len - 1] != ' ' && text[len - 1] != '\\'));
		free(text);
	}
	if (!quote_mount_unit_refusal(s)) {
		text = quoted(quote_mount_unit_name, s, &len);
		CHECK(len <= 255);
		free(text);
	}
	text = quoted(quote_comment, s, &len);
	CHECK(!has_control(text));
	free(text);
}

static void check_autofs(const char *s)
{
	size_t len, skip = *s == '/';
	char *text;

	if (quote_autofs_refusal(s))
		return;
	text = quoted(quote_autofs_path, s, &len);
	if (strcmp(text, s) != 0) {
		CHECK(len == strlen(s) + 2 && strncmp(text, s, skip) == 0);
		CHECK(text[skip] == '"' && text[len - 1] == '"');
		CHECK(strncmp(text + skip + 1, s + skip, len - skip - 2) == 0);
	}
	free(text);
}

static void check_unit_value(const char *s)
{
	size_t len, i, o = 0;
	char *text = quoted(quote_unit_value, s, &len);
	char *back = malloc(len + 1);

	CHECK(back);
	for (i = 0; i < len; i++) {
		if (text[i] == '%') {
			CHECK(i + 1 < len && text[i + 1] == '%');
			i++;
		}
		back[o++] = text[i];
	}
	back[o] = '\0';
	CHECK(strcmp(back, s) == 0);
	free(back);
	free(text);
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* @s with runs of '/' made one and those at both ends dropped. */
static char *simplified(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	CHECK(out);
	while (*s == '/')
		s++;
	for (; *s; s++) {
		if (*s == '/' && (s[1] == '/' || !s[1]))
			continue;
		*o++ = *s;
	}
	*o = '\0';
	return out;
}

static void check_unit_name(const char *s)
{
	size_t len, i, o = 0;
	char *text = quoted(quote_mount_unit_name, s, &len);
	char *want = simplified(s), *back;

	CHECK(len > 6 && strcmp(text + len - 6, ".mount") == 0);
	len -= 6;
	text[len] = '\0';
	CHECK(text[0] != '.');
	if (!*want) {
		CHECK(strcmp(text, "-") == 0);
		goto out;
	}
	back = malloc(len + 1);
	CHECK(back);
	for (i = 0; i < len; i++) {
		char c = text[i];

		if (c == '-') {
			back[o++] = '/';
		} else if (c == '\\') {
			int h, l;

			CHECK(i + 3 < len && text[i + 1] == 'x');
			h = hexval(text[i + 2]);
			l = hexval(text[i + 3]);
			CHECK(h >= 0 && l >= 0);
			back[o++] = (char)(h << 4 | l);
			i += 3;
		} else {
			CHECK((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			      (c >= '0' && c <= '9') || c == ':' || c == '_' ||
			      c == '.');
			back[o++] = c;
		}
	}
	back[o] = '\0';
	CHECK(strcmp(back, want) == 0);
	free(back);
out:
	free(want);
	free(text);
}

static void check_sh(const char *s)
{
	size_t len, i, o = 0;
	char *text = quoted(quote_sh_word, s, &len);
	char *back = malloc(len + 1);

	CHECK(back);
	CHECK(len >= 2 && text[0] == '\'' && text[len - 1] == '\'');
	for (i = 1; i < len - 1; i++) {
		if (text[i] == '\'') {
			CHECK(i + 4 < len && strncmp(text + i, "'\\''", 4) == 0);
			i += 3;
		}
		back[o++] = text[i];
	}
	back[o] = '\0';
	CHECK(strcmp(back, s) == 0);
	free(back);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	CHECK(s);
	memcpy(s, data, size);
	s[size] = '\0';
	check_octal(quote_fstab_field, s, "#");
	check_octal(quote_exports_path, s, "\"#");
	check_autofs(s);
	check_unit_value(s);
	check_unit_name(s);
	check_sh(s);
	check_exports_as_xgettok(s);
	check_fstab_libmount(s);
	check_refused_or_one_line(s);
	free(s);
	return 0;
}
