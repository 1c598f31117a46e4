/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The exports(5) word reader: turns the bytes of an exports file into words
 * as nfs-utils 2.6.2's support/nfs/xio.c does, so that a path or a client
 * is the one exportfs reads, and says by line and column where a byte came
 * from.  Kept apart from the option and entry logic because it is the one
 * place that knows about bytes: continuations, quotes, escapes, comments.
 *
 * Components, in reading order (each named after the nfs-utils function it
 * follows):
 *  - the diagnostics: bino__parser_where(), bino__parser_fail() (the first
 *    failure stops reading), bino__parser_warn() (read on),
 *    bino__quote_bytes().
 *  - parser_rawc(): getc(); every byte passes through it, the one place that
 *    rejects NUL bytes and over-long lines and keeps the line and column.
 *  - parser_getc(): xgetc(), which turns backslash-newline and the blanks
 *    after it into one space.  A cursor saved before a read is how a byte is
 *    put back (xungetc()).
 *  - bino__parser_skip(): xskip(), blanks and "#" comments between words.
 *  - bino__parser_gettok(): xgettok(), one word: double quotes toggle
 *    quoting and are dropped, "\ooo" below \400 is decoded as the word
 *    grows (so a decoded byte can take part in a later escape), and a word
 *    may be empty.  Each byte remembers where it came from, for error
 *    columns.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "exports_parse.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)


/* ------------------------------------------------------------------------ */
/* Diagnostics                                                              */
/* ------------------------------------------------------------------------ */

struct where bino__parser_where(const struct parser *p)
{
	struct where w = {
		.line = p->at.line,
		.column = (unsigned int)(p->at.pos - p->at.line_start + 1),
	};

	return w;
}

static void diag_fill(struct bino_syntax_error *d, const char *file,
		      struct where w, const char *message)
{
	snprintf(d->file, sizeof(d->file), "%s", file);
	d->line = w.line;
	d->column = w.column;
	snprintf(d->message, sizeof(d->message), "%s", message);
}

/* Stop reading at @w: the first failure wins. */
void bino__parser_fail(struct parser *p, struct where w, const char *message)
{
	if (p->status != BINO_OK)
		return;
	p->status = BINO_ERROR_EXPORTS_SYNTAX;
	diag_fill(&p->error, p->file, w, message);
}

void bino__parser_no_memory(struct parser *p)
{
	if (p->status == BINO_OK)
		p->status = BINO_ERROR_NO_MEMORY;
}

void bino__parser_warn(struct parser *p, struct where w, const char *message)
{
	struct bino_syntax_error *d;

	if (p->status != BINO_OK)
		return;
	if (ARRAY_RESERVE(p->warnings, p->warnings_capacity,
			  p->n_warnings + 1)) {
		bino__parser_no_memory(p);
		return;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		bino__parser_no_memory(p);
		return;
	}
	diag_fill(d, p->file, w, message);
	p->warnings[p->n_warnings++] = d;
}

/*
 * Quote @n bytes of @s for a message: printable ASCII as is, other bytes as
 * \ooo, and an ellipsis when the room runs out.
 */
void bino__quote_bytes(char *out, size_t size, const char *s, size_t n)
{
	size_t used = 0;
	size_t i;

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int k;

		if (c >= 0x20 && c < 0x7f && c != '\\')
			k = snprintf(out + used, size - used, "%c", c);
		else
			k = snprintf(out + used, size - used, "\\%03o", c);
		if (k < 0 || (size_t)k >= size - used - 3) {
			snprintf(out + used, size - used, "...");
			return;
		}
		used += (size_t)k;
	}
}

/* ------------------------------------------------------------------------ */
/* Reading bytes (xio.c)                                                    */
/* ------------------------------------------------------------------------ */

int bino__parser_peek(const struct parser *p)
{
	if (p->status != BINO_OK || p->at.pos >= p->length)
		return EOF;
	return p->text[p->at.pos];
}

/*
 * getc(): consume one byte.  Columns never exceed BINO_EXPORTS_LINE_MAX + 1,
 * so they fit an unsigned int; lines saturate rather than wrap.
 */
static int parser_rawc(struct parser *p)
{
	int c = bino__parser_peek(p);

	if (c == EOF)
		return EOF;
	if (c == '\0') {
		bino__parser_fail(p, bino__parser_where(p), "NUL byte in text");
		return EOF;
	}
	if (c == '\n') {
		p->at.pos++;
		p->at.line_start = p->at.pos;
		if (p->at.line < UINT_MAX)
			p->at.line++;
		return c;
	}
	if (p->at.pos - p->at.line_start >= BINO_EXPORTS_LINE_MAX) {
		bino__parser_fail(p, bino__parser_where(p),
				  "line too long (more than "
				  STRINGIFY(BINO_EXPORTS_LINE_MAX) " bytes)");
		return EOF;
	}
	p->at.pos++;
	return c;
}

/*
 * xgetc(): a byte, where backslash-newline and the blanks and tabs after it
 * read as one space.  A backslash before anything else (also "\r\n") is
 * itself.  @at is where the byte (or the backslash) was.
 */
static int parser_getc(struct parser *p, struct where *at)
{
	struct cursor after_backslash;
	int c;

	*at = bino__parser_where(p);
	c = parser_rawc(p);
	if (c != '\\')
		return c;
	after_backslash = p->at;
	if (bino__parser_peek(p) != '\n') {
		p->at = after_backslash;
		return '\\';
	}
	parser_rawc(p);
	while (bino__parser_peek(p) == ' ' || bino__parser_peek(p) == '\t')
		parser_rawc(p);
	return ' ';
}

/*
 * xskip(): skip blanks and tabs, and newlines too if @newlines.  "#" where
 * a word could start comments out the rest of the physical line (a
 * backslash does not continue a comment).  Stops before the first other
 * byte: the start of a word, or a newline, or \r, \v, \f.
 */
void bino__parser_skip(struct parser *p, bool newlines)
{
	for (;;) {
		struct cursor before = p->at;
		struct where at;
		int c = parser_getc(p, &at);

		if (c == '#') {
			while (bino__parser_peek(p) != EOF &&
			       bino__parser_peek(p) != '\n')
				parser_rawc(p);
			before = p->at;
			c = parser_rawc(p);
		}
		if (c == EOF)
			return;
		if (c == ' ' || c == '\t' || (c == '\n' && newlines))
			continue;
		p->at = before;
		return;
	}
}

/* Room for @n bytes and their terminating NUL. */
static bool word_reserve(struct word *w, size_t n)
{
	return n < SIZE_MAX &&
	       ARRAY_RESERVE(w->bytes, w->bytes_capacity, n + 1) == 0 &&
	       ARRAY_RESERVE(w->at, w->at_capacity, n) == 0;
}

static bool word_append(struct word *w, char c, struct where at)
{
	if (!word_reserve(w, w->length + 1))
		return false;
	w->bytes[w->length] = c;
	w->at[w->length] = at;
	w->length++;
	w->bytes[w->length] = '\0';
	return true;
}

/*
 * If the word ends in a backslash and three octal digits below \400, put
 * the byte they stand for in their place, as xgettok() does after each byte.
 */
static void parser_decode_tail(struct parser *p)
{
	struct word *w = &p->word;
	const char *t = w->bytes + w->length - 4;
	int value;

	if (w->length < 4 || t[0] != '\\' || !is_octal(t[1]) ||
	    !is_octal(t[2]) || !is_octal(t[3]))
		return;
	value = (t[1] - '0') << 6 | (t[2] - '0') << 3 | (t[3] - '0');
	if (value >= 256)
		return;
	if (value == 0) {
		bino__parser_fail(p, w->at[w->length - 4],
				  "escape \\000 makes a NUL byte");
		return;
	}
	w->length -= 4;
	w->bytes[w->length] = (char)value;
	w->length++;
	w->bytes[w->length] = '\0';
}

/*
 * xgettok(): read one word of fewer than @size bytes.  A word ends at an
 * unquoted space (isspace(), so also \r, \v and \f, which bino__parser_skip()
 * does not skip) or at the end; a newline that ends it is left to be read
 * again.  A quote runs on over newlines, as in exportfs (we warn).
 *
 * Return: PARSER_WORD_READ for a word in p->word, PARSER_WORD_EMPTY for an
 * empty one and once p->status is set, PARSER_WORD_TOO_LONG if it has
 * @size bytes or more (then the rest is not read).
 */
enum parser_word bino__parser_gettok(struct parser *p, size_t size)
{
	struct word *w = &p->word;
	struct cursor before = p->at;
	struct where quote_at = { 0, 0 };
	bool quoted = false;
	bool warned = false;
	int c = 0;

	w->length = 0;
	w->start = bino__parser_where(p);
	if (!word_reserve(w, 1)) {
		bino__parser_no_memory(p);
		return PARSER_WORD_EMPTY;
	}
	w->bytes[0] = '\0';
	while (w->length < size) {
		struct where at;

		before = p->at;
		c = parser_getc(p, &at);
		if (c == EOF || (!quoted && is_space(c)))
			break;
		if (c == '"') {
			quoted = !quoted;
			quote_at = at;
			continue;
		}
		if (c == '\n' && !warned) {
			bino__parser_warn(p, quote_at,
					  "quote runs past the end of the "
					  "line: exportfs reads on to the "
					  "next quote");
			warned = true;
		}
		if (!word_append(w, (char)c, at)) {
			bino__parser_no_memory(p);
			return 0;
		}
		parser_decode_tail(p);
	}
	if (p->status != BINO_OK)
		return PARSER_WORD_EMPTY;
	if (c == '\n')
		p->at = before;
	if (quoted && !warned)
		bino__parser_warn(p, quote_at,
				  "unterminated quote: exportfs reads on to "
				  "the end of the file");
	if (w->length == 0)
		return PARSER_WORD_EMPTY;
	if (w->length >= size)
		return PARSER_WORD_TOO_LONG;
	return PARSER_WORD_READ;
}
