/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The exports(5) parser: reads /etc/exports text the way nfs-utils' exportfs
 * does (support/nfs/xio.c and exports.c), so that what we describe is what the
 * server will export, and reports what it cannot read by file:line:column.
 *
 * Components, in reading order:
 *  - parser_take() and parser_skip_blanks(): every byte passes through
 *    parser_take(), the one place that rejects NUL bytes and over-long lines
 *    and keeps the line and column.  Blanks, backslash-newline continuations
 *    and "#" comments (only where a word could start, as xskip() does) are
 *    skipped between words.
 *  - parser_read_word(): one word, with quotes removed and \ooo escapes
 *    decoded.  Each decoded byte remembers where it came from, because
 *    nfs-utils gives '(' ')' ',' their meaning only after decoding and our
 *    errors must still point into the text.
 *  - parser_read_options(): validates an option list and records it.
 *  - parser_add_export(): resolves the options of one (path, client) pair into
 *    flags (later options win) and keeps it in the parser's own list.
 *  - exports_commit(): moves that list into the table only once the whole
 *    text has parsed, so a bad file adds nothing.
 */
#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

struct bino_export {
	char *path;
	char *client;
	char *options;
	char *fsid;
	char *unknown;
	const char *file;
	unsigned int line;
	/* The last physical line of the entry (after continuations). */
	unsigned int last_line;
	int flags;
};

struct bino_exports {
	struct bino_export **items;
	size_t count;
	size_t capacity;
	/* The file names bino_export_file() points into. */
	char **files;
	size_t n_files;
};

/* A growable NUL-terminated byte string. */
struct strbuf {
	char *data;
	size_t length;
	size_t capacity;
};

/* A place in the text. */
struct where {
	unsigned int line;
	unsigned int column;
};

/* A decoded word and where each of its bytes came from. */
struct word {
	char *bytes;
	struct where *at;
	size_t length;
	size_t bytes_capacity;
	size_t at_capacity;
	struct where start;
};

/* Options as written, joined by commas, and where each one is in the text. */
struct span {
	size_t offset;
	size_t length;
};

struct optlist {
	struct strbuf text;
	struct span *spans;
	size_t count;
	size_t capacity;
};

struct parser {
	const unsigned char *text;
	size_t length;
	size_t pos;
	unsigned int line;
	size_t line_start;
	const char *file;
	struct bino_syntax_error *err;
	struct word word;
	struct optlist defaults;
	struct optlist own;
	struct bino_export **items;
	size_t count;
	size_t capacity;
};

static bool strbuf_append(struct strbuf *sb, const char *bytes, size_t n)
{
	if (n >= SIZE_MAX - sb->length ||
	    ARRAY_RESERVE(sb->data, sb->capacity, sb->length + n + 1))
		return false;
	if (n)
		memcpy(sb->data + sb->length, bytes, n);
	sb->length += n;
	sb->data[sb->length] = '\0';
	return true;
}

/* Append @bytes to a comma-separated list. */
static bool strbuf_append_item(struct strbuf *sb, const char *bytes, size_t n)
{
	if (sb->length && !strbuf_append(sb, ",", 1))
		return false;
	return strbuf_append(sb, bytes, n);
}

static char *strbuf_steal(struct strbuf *sb)
{
	char *data = sb->data;

	memset(sb, 0, sizeof(*sb));
	return data;
}

static void optlist_reset(struct optlist *list)
{
	list->text.length = 0;
	if (list->text.data)
		list->text.data[0] = '\0';
	list->count = 0;
}

static bool optlist_add(struct optlist *list, const char *bytes, size_t n)
{
	size_t offset;

	if (ARRAY_RESERVE(list->spans, list->capacity, list->count + 1))
		return false;
	offset = list->text.length + (list->text.length ? 1 : 0);
	if (!strbuf_append_item(&list->text, bytes, n))
		return false;
	list->spans[list->count].offset = offset;
	list->spans[list->count].length = n;
	list->count++;
	return true;
}

static void optlist_free(struct optlist *list)
{
	free(list->text.data);
	free(list->spans);
}

static void export_free(struct bino_export *export)
{
	if (!export)
		return;
	free(export->path);
	free(export->client);
	free(export->options);
	free(export->fsid);
	free(export->unknown);
	free(export);
}

/* ------------------------------------------------------------------------ */
/* Reading bytes                                                            */
/* ------------------------------------------------------------------------ */

static struct where parser_where(const struct parser *p)
{
	struct where w = {
		.line = p->line,
		.column = (unsigned int)(p->pos - p->line_start + 1),
	};

	return w;
}

static enum bino_error parser_fail(struct parser *p, struct where w,
				   const char *message)
{
	if (p->err) {
		snprintf(p->err->file, sizeof(p->err->file), "%s", p->file);
		p->err->line = w.line;
		p->err->column = w.column;
		snprintf(p->err->message, sizeof(p->err->message), "%s",
			 message);
	}
	return BINO_ERROR_EXPORTS_SYNTAX;
}

/*
 * Consume the byte at the current position.  Columns never exceed
 * BINO_EXPORTS_LINE_MAX + 1, so they fit an unsigned int; lines saturate
 * rather than wrap on absurdly long input.
 */
static enum bino_error parser_take(struct parser *p)
{
	unsigned char c = p->text[p->pos];

	if (c == '\0')
		return parser_fail(p, parser_where(p), "NUL byte in text");
	if (c == '\n') {
		p->pos++;
		p->line_start = p->pos;
		if (p->line < UINT_MAX)
			p->line++;
		return BINO_OK;
	}
	if (p->pos - p->line_start >= BINO_EXPORTS_LINE_MAX)
		return parser_fail(p, parser_where(p),
				   "line too long (more than "
				   STRINGIFY(BINO_EXPORTS_LINE_MAX) " bytes)");
	p->pos++;
	return BINO_OK;
}

static enum bino_error parser_take_n(struct parser *p, size_t n)
{
	enum bino_error ret = BINO_OK;

	while (n-- && ret == BINO_OK)
		ret = parser_take(p);
	return ret;
}

static bool parser_at_end(const struct parser *p)
{
	return p->pos >= p->length;
}

/* Blanks separate words; '\n' ends a line and is not one.  C locale isspace. */
static bool is_blank(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_octal(unsigned char c)
{
	return c >= '0' && c <= '7';
}

/*
 * The length of a backslash-newline at the current position, or 0.  A
 * backslash before "\r\n" does not continue the line: exportfs keeps the
 * backslash and ends the line there, and we read what exportfs reads.
 */
static size_t parser_continuation(const struct parser *p)
{
	size_t left = p->length - p->pos;
	const unsigned char *s = p->text + p->pos;

	if (left >= 2 && s[0] == '\\' && s[1] == '\n')
		return 2;
	return 0;
}

/*
 * Skip what may separate words: blanks, continuations and comments, and also
 * newlines if @newlines.  Stops at the start of a word, at a newline (not
 * consumed) or at the end.
 */
static enum bino_error parser_skip_blanks(struct parser *p, bool newlines)
{
	enum bino_error ret = BINO_OK;

	while (ret == BINO_OK && !parser_at_end(p)) {
		unsigned char c = p->text[p->pos];
		size_t n;

		if (is_blank(c) || (c == '\n' && newlines)) {
			ret = parser_take(p);
		} else if ((n = parser_continuation(p))) {
			ret = parser_take_n(p, n);
		} else if (c == '#') {
			while (ret == BINO_OK && !parser_at_end(p) &&
			       p->text[p->pos] != '\n')
				ret = parser_take(p);
		} else {
			break;
		}
	}
	return ret;
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
 * Read one word starting at the current position, as xgettok() does: a
 * double quote toggles quoting anywhere in the word and is dropped; quoted
 * blanks (and a continuation, which becomes one space) belong to the word; a
 * backslash and three octal digits below \400 stand for that byte; any other
 * backslash is itself.  Unlike nfs-utils, a quote may not run past the end
 * of its line, and a decoded byte is never decoded again.
 */
static enum bino_error parser_read_word(struct parser *p)
{
	struct word *w = &p->word;
	struct where quote_at = { 0, 0 };
	bool quoted = false;
	enum bino_error ret = BINO_OK;

	w->length = 0;
	w->start = parser_where(p);
	if (!word_reserve(w, 1))
		return BINO_ERROR_NO_MEMORY;
	w->bytes[0] = '\0';

	while (!parser_at_end(p)) {
		const unsigned char *s = p->text + p->pos;
		size_t left = p->length - p->pos;
		struct where here = parser_where(p);
		size_t n;
		char c = (char)s[0];

		if (s[0] == '"') {
			ret = parser_take(p);
			if (ret != BINO_OK)
				return ret;
			quoted = !quoted;
			quote_at = here;
			continue;
		}
		if ((n = parser_continuation(p))) {
			if (!quoted)
				break;
			ret = parser_take_n(p, n);
			while (ret == BINO_OK && !parser_at_end(p) &&
			       (p->text[p->pos] == ' ' ||
				p->text[p->pos] == '\t'))
				ret = parser_take(p);
			if (ret != BINO_OK)
				return ret;
			if (!word_append(w, ' ', here))
				return BINO_ERROR_NO_MEMORY;
			continue;
		}
		if (s[0] == '\n' || (is_blank(s[0]) && !quoted))
			break;
		n = 1;
		if (s[0] == '\\' && left >= 4 && s[1] >= '0' && s[1] <= '3' &&
		    is_octal(s[2]) && is_octal(s[3])) {
			c = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				   (s[3] - '0'));
			if (c == '\0')
				return parser_fail(p, here,
						   "escape \\000 makes a NUL byte");
			n = 4;
		}
		ret = parser_take_n(p, n);
		if (ret != BINO_OK)
			return ret;
		if (!word_append(w, c, here))
			return BINO_ERROR_NO_MEMORY;
	}
	if (quoted)
		return parser_fail(p, quote_at, "unterminated quote");
	return BINO_OK;
}

/* ------------------------------------------------------------------------ */
/* Options                                                                  */
/* ------------------------------------------------------------------------ */

/* The options exports(5) defines that take no value. */
static const char *const plain_options[] = {
	"ro", "rw", "secure", "insecure", "sync", "async", "wdelay",
	"no_wdelay", "nohide", "hide", "crossmnt", "nocrossmnt",
	"root_squash", "no_root_squash", "all_squash", "no_all_squash",
	"subtree_check", "no_subtree_check", "auth_nlm", "no_auth_nlm",
	"secure_locks", "insecure_locks", "acl", "no_acl", "pnfs", "no_pnfs",
	"security_label", "nordirplus", "mountpoint", "mp",
};

/* The options that take "=value"; the ones checked are handled apart. */
static const char *const value_options[] = {
	"anonuid", "anongid", "squash_uids", "squash_gids", "fsid",
	"mountpoint", "mp", "refer", "replicas", "sec", "reexport", "xprtsec",
};

static const char *const sec_flavors[] = {
	"krb5", "krb5i", "krb5p", "unix", "sys", "null", "none",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static bool option_is(const char *opt, size_t n, const char *name)
{
	return strlen(name) == n && memcmp(opt, name, n) == 0;
}

/* Whether @opt is "@name=..."; the value is what follows. */
static bool option_has_value(const char *opt, size_t n, const char *name,
			     const char **value, size_t *value_length)
{
	size_t k = strlen(name);

	if (n <= k || memcmp(opt, name, k) != 0 || opt[k] != '=')
		return false;
	*value = opt + k + 1;
	*value_length = n - k - 1;
	return true;
}

static bool option_known(const char *opt, size_t n)
{
	const char *value;
	size_t value_length;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(plain_options); i++) {
		if (option_is(opt, n, plain_options[i]))
			return true;
	}
	for (i = 0; i < ARRAY_SIZE(value_options); i++) {
		if (option_has_value(opt, n, value_options[i], &value,
				     &value_length))
			return true;
	}
	return false;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* What strtoul(s, &end, 0) reads whole, without sign or leading blanks. */
static bool is_c_number(const char *s, size_t n)
{
	size_t i = 0;

	if (n == 0)
		return false;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		for (i = 2; i < n && is_xdigit(s[i]); i++)
			;
	} else if (s[0] == '0') {
		for (i = 1; i < n && is_octal((unsigned char)s[i]); i++)
			;
	} else {
		for (i = 0; i < n && is_digit(s[i]); i++)
			;
	}
	return i == n;
}

/* nfs-utils counts the hex digits of a UUID and ignores the rest. */
static bool is_uuid(const char *s, size_t n)
{
	size_t digits = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (is_xdigit(s[i]))
			digits++;
	}
	return digits == 32;
}

static bool is_decimal(const char *s, size_t n)
{
	size_t i = 0;

	if (n && (s[0] == '-' || s[0] == '+'))
		i++;
	if (i == n)
		return false;
	for (; i < n; i++) {
		if (!is_digit(s[i]))
			return false;
	}
	return true;
}

static bool is_sec_list(const char *s, size_t n)
{
	size_t start = 0;
	size_t i;

	for (i = 0; i <= n; i++) {
		bool found = false;
		size_t k;

		if (i < n && s[i] != ':')
			continue;
		for (k = 0; k < ARRAY_SIZE(sec_flavors); k++) {
			if (option_is(s + start, i - start, sec_flavors[k]))
				found = true;
		}
		if (!found)
			return false;
		start = i + 1;
	}
	return true;
}

/*
 * The end of the option starting at @i.  An option ends at a comma, except
 * that squash_uids= and squash_gids= lists run on over ",<digit>..." as
 * parsesquash() reads them.
 */
static size_t option_end(const char *s, size_t i, size_t end)
{
	bool squash = (end - i > 12 && (memcmp(s + i, "squash_uids=", 12) == 0 ||
					memcmp(s + i, "squash_gids=", 12) == 0));
	const char *comma;

	for (;;) {
		comma = memchr(s + i, ',', end - i);
		if (!comma)
			return end;
		i = (size_t)(comma - s);
		if (!squash || i + 1 >= end || !is_digit(s[i + 1]))
			return i;
		i++;
	}
}

/* Check the values nfs-utils would refuse, and say why. */
static const char *option_check(const char *opt, size_t n)
{
	const char *value;
	size_t length;

	if (option_has_value(opt, n, "fsid", &value, &length) &&
	    !option_is(value, length, "root") && !is_c_number(value, length) &&
	    !is_uuid(value, length))
		return "bad fsid= value (want a number, \"root\" or a UUID)";
	if (option_has_value(opt, n, "anonuid", &value, &length) &&
	    !is_decimal(value, length))
		return "bad anonuid= value (want a number)";
	if (option_has_value(opt, n, "anongid", &value, &length) &&
	    !is_decimal(value, length))
		return "bad anongid= value (want a number)";
	if (option_has_value(opt, n, "sec", &value, &length) &&
	    !is_sec_list(value, length))
		return "bad sec= value (want flavors such as sys:krb5 "
		       "joined by ':')";
	if (option_is(opt, n, "fsid") || option_is(opt, n, "anonuid") ||
	    option_is(opt, n, "anongid") || option_is(opt, n, "sec"))
		return "option needs a value (name=value)";
	return NULL;
}

/*
 * Validate the options in bytes [@begin, @end) of the current word and add
 * them to @list.  As in parseopts(), blanks before an option are dropped and
 * one trailing comma is accepted; any other empty option is an error.
 */
static enum bino_error parser_read_options(struct parser *p, size_t begin,
					   size_t end, struct optlist *list)
{
	const struct word *w = &p->word;
	size_t i = begin;

	while (i < end) {
		size_t stop;
		const char *why;
		size_t k;

		while (i < end && (w->bytes[i] == ' ' || w->bytes[i] == '\t'))
			i++;
		if (i == end)
			break;
		stop = option_end(w->bytes, i, end);
		if (stop == i)
			return parser_fail(p, w->at[i], "empty option");
		for (k = i; k < stop; k++) {
			if (w->bytes[k] == '(' || w->bytes[k] == ')')
				return parser_fail(p, w->at[k],
						   "parenthesis inside an option list");
		}
		why = option_check(w->bytes + i, stop - i);
		if (why)
			return parser_fail(p, w->at[i], why);
		if (!optlist_add(list, w->bytes + i, stop - i))
			return BINO_ERROR_NO_MEMORY;
		i = stop + 1;
	}
	return BINO_OK;
}

/* Apply the meaning of @list's options, in order, to @e's flags and fsid. */
static bool export_apply(struct bino_export *e, const struct optlist *list,
			 struct strbuf *unknown)
{
	size_t i;

	for (i = 0; i < list->count; i++) {
		const char *opt = list->text.data + list->spans[i].offset;
		size_t n = list->spans[i].length;
		const char *value;
		size_t length;

		if (option_is(opt, n, "ro"))
			e->flags |= BINO_EXPORT_RO;
		else if (option_is(opt, n, "rw"))
			e->flags &= ~BINO_EXPORT_RO;
		else if (option_is(opt, n, "nohide"))
			e->flags |= BINO_EXPORT_NOHIDE;
		else if (option_is(opt, n, "hide"))
			e->flags &= ~BINO_EXPORT_NOHIDE;
		else if (option_is(opt, n, "crossmnt"))
			e->flags |= BINO_EXPORT_CROSSMNT;
		else if (option_is(opt, n, "nocrossmnt"))
			e->flags &= ~BINO_EXPORT_CROSSMNT;
		else if (option_is(opt, n, "subtree_check"))
			e->flags |= BINO_EXPORT_SUBTREE_CHECK;
		else if (option_is(opt, n, "no_subtree_check"))
			e->flags &= ~BINO_EXPORT_SUBTREE_CHECK;
		else if (option_has_value(opt, n, "fsid", &value, &length)) {
			char *copy = strndup(value, length);

			if (!copy)
				return false;
			free(e->fsid);
			e->fsid = copy;
			e->flags |= BINO_EXPORT_FSID;
		} else if (!option_known(opt, n) &&
			 !strbuf_append_item(unknown, opt, n))
			return false;
	}
	return true;
}

/* ------------------------------------------------------------------------ */
/* Lines                                                                    */
/* ------------------------------------------------------------------------ */

/*
 * Add (@path, @client) with the line's defaults and the client's own options
 * (p->own) to the parser's list.
 */
static enum bino_error parser_add_export(struct parser *p, const char *path,
					 unsigned int line, const char *client,
					 size_t client_length)
{
	struct strbuf options = { 0 };
	struct strbuf unknown = { 0 };
	struct bino_export *e;

	if (ARRAY_RESERVE(p->items, p->capacity, p->count + 1))
		return BINO_ERROR_NO_MEMORY;
	e = calloc(1, sizeof(*e));
	if (!e)
		return BINO_ERROR_NO_MEMORY;
	e->file = p->file;
	e->line = line;
	/* The default, as EXPORT_DEFAULT_FLAGS in nfs-utils. */
	e->flags = BINO_EXPORT_RO;
	e->path = strdup(path);
	e->client = strndup(client, client_length);
	if (!e->path || !e->client)
		goto free_export;
	if (!strbuf_append(&options, "", 0) ||
	    !strbuf_append_item(&options, p->defaults.text.data,
				p->defaults.text.length) ||
	    (p->own.text.length &&
	     !strbuf_append_item(&options, p->own.text.data,
				 p->own.text.length)))
		goto free_strings;
	if (!export_apply(e, &p->defaults, &unknown) ||
	    !export_apply(e, &p->own, &unknown))
		goto free_strings;
	e->options = strbuf_steal(&options);
	if (unknown.data)
		e->unknown = strbuf_steal(&unknown);
	p->items[p->count++] = e;
	return BINO_OK;

free_strings:
	free(options.data);
	free(unknown.data);
free_export:
	export_free(e);
	return BINO_ERROR_NO_MEMORY;
}

/*
 * One client word: "host", "host(opts)" or "(opts)".  The first '(' opens
 * the list and the first ')' must end the word, as in getexportent().
 */
static enum bino_error parser_read_client(struct parser *p, const char *path,
					  unsigned int line)
{
	const struct word *w = &p->word;
	const char *open = memchr(w->bytes, '(', w->length);
	size_t host_length = open ? (size_t)(open - w->bytes) : w->length;
	const char *close;
	enum bino_error ret;

	if (w->length == 0)
		return parser_fail(p, w->start, "empty client name");
	close = memchr(w->bytes, ')', host_length);
	if (close)
		return parser_fail(p, w->at[close - w->bytes], "')' without '('");
	optlist_reset(&p->own);
	if (open) {
		size_t begin = host_length + 1;

		close = memchr(w->bytes + begin, ')', w->length - begin);
		if (!close)
			return parser_fail(p, w->at[host_length],
					   "missing ')' (an option list may not "
					   "contain unquoted blanks)");
		if ((size_t)(close - w->bytes) + 1 != w->length)
			return parser_fail(p, w->at[close - w->bytes + 1],
					   "unexpected text after ')'");
		ret = parser_read_options(p, begin,
					  (size_t)(close - w->bytes), &p->own);
		if (ret != BINO_OK)
			return ret;
	}
	if (host_length == 0)
		return parser_add_export(p, path, line, "*", 1);
	return parser_add_export(p, path, line, w->bytes, host_length);
}

/*
 * One line: the path, then default-option words and clients.  Defaults apply
 * to the clients after them and add up.  A line without a client, or whose
 * last word is a default-option word, exports to "*": getexportent() reads
 * the missing client as the empty name, which nfs-utils takes for "*".
 */
static enum bino_error parser_read_line(struct parser *p)
{
	enum bino_error ret;
	unsigned int line = p->word.start.line;
	size_t first = p->count;
	bool need_world = true;
	char *path;

	if (p->word.length == 0 || p->word.bytes[0] != '/')
		return parser_fail(p, p->word.start,
				   "path must be absolute (start with '/')");
	path = strndup(p->word.bytes, p->word.length);
	if (!path)
		return BINO_ERROR_NO_MEMORY;
	optlist_reset(&p->defaults);
	optlist_reset(&p->own);

	for (;;) {
		ret = parser_skip_blanks(p, false);
		if (ret != BINO_OK)
			goto free_path;
		if (parser_at_end(p) || p->text[p->pos] == '\n')
			break;
		ret = parser_read_word(p);
		if (ret != BINO_OK)
			goto free_path;
		if (p->word.length && p->word.bytes[0] == '-') {
			ret = parser_read_options(p, 1, p->word.length,
						  &p->defaults);
			need_world = true;
		} else {
			ret = parser_read_client(p, path, line);
			need_world = false;
		}
		if (ret != BINO_OK)
			goto free_path;
	}
	if (need_world) {
		optlist_reset(&p->own);
		ret = parser_add_export(p, path, line, "*", 1);
	}
	/* The loop stopped at the newline (or end) that ends the entry. */
	for (; ret == BINO_OK && first < p->count; first++)
		p->items[first]->last_line = p->line;

free_path:
	free(path);
	return ret;
}

static enum bino_error parser_run(struct parser *p)
{
	enum bino_error ret;

	for (;;) {
		ret = parser_skip_blanks(p, true);
		if (ret != BINO_OK || parser_at_end(p))
			return ret;
		ret = parser_read_word(p);
		if (ret != BINO_OK)
			return ret;
		ret = parser_read_line(p);
		if (ret != BINO_OK)
			return ret;
	}
}

static void parser_free(struct parser *p)
{
	size_t i;

	for (i = 0; i < p->count; i++)
		export_free(p->items[i]);
	free(p->items);
	free(p->word.bytes);
	free(p->word.at);
	optlist_free(&p->defaults);
	optlist_free(&p->own);
}

/*
 * Move everything parsed into the table.  Both arrays are grown first, so
 * that once this starts it cannot fail halfway.
 */
static enum bino_error exports_commit(struct bino_exports *exports,
				      struct parser *p, char *file)
{
	void *files = exports->files;
	size_t files_capacity = exports->n_files;

	if (p->count == 0) {
		free(file);
		return BINO_OK;
	}
	if (p->count > SIZE_MAX - exports->count ||
	    ARRAY_RESERVE(exports->items, exports->capacity,
			  exports->count + p->count))
		return BINO_ERROR_NO_MEMORY;
	/* files has no spare capacity: its length is its capacity. */
	files = realloc(files, (files_capacity + 1) * sizeof(*exports->files));
	if (!files)
		return BINO_ERROR_NO_MEMORY;
	exports->files = files;
	exports->files[exports->n_files++] = file;
	memcpy(exports->items + exports->count, p->items,
	       p->count * sizeof(*p->items));
	exports->count += p->count;
	p->count = 0;
	return BINO_OK;
}

/* ------------------------------------------------------------------------ */
/* Public API                                                               */
/* ------------------------------------------------------------------------ */

BINO_PUBLIC enum bino_error bino_exports_create(struct bino_exports **ret)
{
	struct bino_exports *exports;

	if (!ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	exports = calloc(1, sizeof(*exports));
	if (!exports)
		return BINO_ERROR_NO_MEMORY;
	*ret = exports;
	return BINO_OK;
}

BINO_PUBLIC void bino_exports_destroy(struct bino_exports *exports)
{
	size_t i;

	if (!exports)
		return;
	for (i = 0; i < exports->count; i++)
		export_free(exports->items[i]);
	for (i = 0; i < exports->n_files; i++)
		free(exports->files[i]);
	free(exports->items);
	free(exports->files);
	free(exports);
}

BINO_PUBLIC enum bino_error
bino_exports_add_buffer(struct bino_exports *exports, const char *name,
			const char *text, size_t length,
			struct bino_syntax_error *err)
{
	struct parser p = {
		.text = (const unsigned char *)text,
		.length = length,
		.line = 1,
		.err = err,
	};
	enum bino_error ret;
	char *file;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!exports || !name || (!text && length))
		return BINO_ERROR_INVALID_ARGUMENT;
	file = strdup(name);
	if (!file)
		return BINO_ERROR_NO_MEMORY;
	p.file = file;

	ret = parser_run(&p);
	/* On success the table owns @file from here. */
	if (ret == BINO_OK)
		ret = exports_commit(exports, &p, file);
	if (ret != BINO_OK)
		free(file);
	parser_free(&p);
	return ret;
}

/* Read a whole file; exports files are small, and may hold any byte. */
static enum bino_error read_file(const char *path, char **text, size_t *length)
{
	size_t capacity = 0;
	size_t used = 0;
	char *data = NULL;
	int saved_errno;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return BINO_ERROR_EXPORTS_READ_FAILED;
	for (;;) {
		ssize_t n;

		if (ARRAY_RESERVE(data, capacity, used + 4096)) {
			free(data);
			close(fd);
			errno = ENOMEM;
			return BINO_ERROR_NO_MEMORY;
		}
		n = read(fd, data + used, capacity - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			goto free_data;
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	*text = data;
	*length = used;
	return BINO_OK;

free_data:
	saved_errno = errno;
	free(data);
	close(fd);
	errno = saved_errno;
	return BINO_ERROR_EXPORTS_READ_FAILED;
}

BINO_PUBLIC enum bino_error
bino_exports_add_file(struct bino_exports *exports, const char *path,
		      struct bino_syntax_error *err)
{
	enum bino_error ret;
	size_t length;
	char *text;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!exports || !path)
		return BINO_ERROR_INVALID_ARGUMENT;
	ret = read_file(path, &text, &length);
	if (ret != BINO_OK)
		return ret;
	ret = bino_exports_add_buffer(exports, path, text, length, err);
	free(text);
	return ret;
}

BINO_PUBLIC size_t bino_exports_count(const struct bino_exports *exports)
{
	return exports ? exports->count : 0;
}

BINO_PUBLIC const struct bino_export *
bino_exports_get(const struct bino_exports *exports, size_t index)
{
	if (!exports || index >= exports->count)
		return NULL;
	return exports->items[index];
}

BINO_PUBLIC const char *bino_export_path(const struct bino_export *export)
{
	return export->path;
}

BINO_PUBLIC const char *bino_export_client(const struct bino_export *export)
{
	return export->client;
}

BINO_PUBLIC const char *bino_export_file(const struct bino_export *export)
{
	return export->file;
}

BINO_PUBLIC unsigned int bino_export_line(const struct bino_export *export)
{
	return export->line;
}

BINO_PUBLIC unsigned int
bino_export_last_line(const struct bino_export *export)
{
	return export->last_line;
}

BINO_PUBLIC const char *bino_export_options(const struct bino_export *export)
{
	return export->options;
}

BINO_PUBLIC int bino_export_flags(const struct bino_export *export)
{
	return export->flags;
}

BINO_PUBLIC const char *bino_export_fsid(const struct bino_export *export)
{
	return export->fsid;
}

BINO_PUBLIC const char *
bino_export_unknown_options(const struct bino_export *export)
{
	return export->unknown;
}
