/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The exports(5) parser: reads /etc/exports text the way nfs-utils 2.6.2's
 * exportfs does (support/nfs/xio.c, getexportent() and parseopts() in
 * support/nfs/exports.c, export_read() in support/export/export.c), so that
 * what we describe is what the server will export.  exportfs stops reading a
 * file at its first error and keeps the entries before it; so do we, and we
 * say where, by file:line:column.  What exportfs only warns about is kept
 * in the table as a warning.
 *
 * Components, in reading order (each named after the nfs-utils function it
 * follows):
 *  - parser_rawc(): getc(); every byte passes through it, the one place that
 *    rejects NUL bytes and over-long lines and keeps the line and column.
 *  - parser_getc(): xgetc(), which turns backslash-newline and the blanks
 *    after it into one space.  A cursor saved before a read is how a byte is
 *    put back (xungetc()).
 *  - parser_skip(): xskip(), blanks and "#" comments between words.
 *  - parser_gettok(): xgettok(), one word: double quotes toggle quoting and
 *    are dropped, "\ooo" below \400 is decoded as the word grows (so a
 *    decoded byte can take part in a later escape), and a word may be
 *    empty.  Each byte remembers where it came from, for error columns.
 *  - parser_read_options(): parseopts(), which checks every option and value
 *    as exportfs does; parser_add_export() turns the options of one (path,
 *    client) pair into flags (later options win).
 *  - parser_run(): getexportent() called until it returns NULL.
 *  - exports_commit(): moves what was read, the warnings and the error that
 *    stopped the file into the table, all or (out of memory) nothing.
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

/*
 * The sizes of getexportent()'s buffers (e_path[NFS_MAXPATHLEN + 1] and
 * exp[512]): a path of 1025 bytes or more, or a client word of 512 or more,
 * stops exportfs.
 */
#define EXPORTFS_PATH_SIZE 1025
#define EXPORTFS_CLIENT_SIZE 512

struct bino_export {
	char *path;
	char *client;
	char *options;
	char *fsid;
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
	/* Where reading a file stopped: one per file at most, in order. */
	struct bino_syntax_error **errors;
	size_t n_errors;
	size_t errors_capacity;
	/* What exportfs warns about and reads on, in order. */
	struct bino_syntax_error **warnings;
	size_t n_warnings;
	size_t warnings_capacity;
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

/* A place in the text, and what follows from it (for putting bytes back). */
struct cursor {
	size_t pos;
	unsigned int line;
	size_t line_start;
};

struct parser {
	const unsigned char *text;
	size_t length;
	struct cursor at;
	const char *file;
	/* The first failure; once set, every read returns EOF. */
	enum bino_error status;
	struct bino_syntax_error error;
	struct word word;
	/* The path of the line being read (getexportent()'s def_ee.e_path). */
	char *path;
	unsigned int path_line;
	bool has_defaults;
	/* The first item of the current line, for last_line. */
	size_t line_first;
	struct optlist defaults;
	struct optlist own;
	struct bino_export **items;
	size_t count;
	size_t capacity;
	struct bino_syntax_error **warnings;
	size_t n_warnings;
	size_t warnings_capacity;
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
	free(export);
}

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                              */
/* ------------------------------------------------------------------------ */

static struct where parser_where(const struct parser *p)
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
static void parser_fail(struct parser *p, struct where w, const char *message)
{
	if (p->status != BINO_OK)
		return;
	p->status = BINO_ERROR_EXPORTS_SYNTAX;
	diag_fill(&p->error, p->file, w, message);
}

static void parser_no_memory(struct parser *p)
{
	if (p->status == BINO_OK)
		p->status = BINO_ERROR_NO_MEMORY;
}

static void parser_warn(struct parser *p, struct where w, const char *message)
{
	struct bino_syntax_error *d;

	if (p->status != BINO_OK)
		return;
	if (ARRAY_RESERVE(p->warnings, p->warnings_capacity,
			  p->n_warnings + 1)) {
		parser_no_memory(p);
		return;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		parser_no_memory(p);
		return;
	}
	diag_fill(d, p->file, w, message);
	p->warnings[p->n_warnings++] = d;
}

/*
 * Quote @n bytes of @s for a message: printable ASCII as is, other bytes as
 * \ooo, and an ellipsis when the room runs out.
 */
static void quote_bytes(char *out, size_t size, const char *s, size_t n)
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

static int parser_peek(const struct parser *p)
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
	int c = parser_peek(p);

	if (c == EOF)
		return EOF;
	if (c == '\0') {
		parser_fail(p, parser_where(p), "NUL byte in text");
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
		parser_fail(p, parser_where(p),
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

	*at = parser_where(p);
	c = parser_rawc(p);
	if (c != '\\')
		return c;
	after_backslash = p->at;
	if (parser_peek(p) != '\n') {
		p->at = after_backslash;
		return '\\';
	}
	parser_rawc(p);
	while (parser_peek(p) == ' ' || parser_peek(p) == '\t')
		parser_rawc(p);
	return ' ';
}

/*
 * xskip(): skip blanks and tabs, and newlines too if @newlines.  "#" where
 * a word could start comments out the rest of the physical line (a
 * backslash does not continue a comment).  Stops before the first other
 * byte: the start of a word, or a newline, or \r, \v, \f.
 */
static void parser_skip(struct parser *p, bool newlines)
{
	for (;;) {
		struct cursor before = p->at;
		struct where at;
		int c = parser_getc(p, &at);

		if (c == '#') {
			while (parser_peek(p) != EOF && parser_peek(p) != '\n')
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

/* isspace() in the C locale. */
static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

static bool is_octal(int c)
{
	return c >= '0' && c <= '7';
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
		parser_fail(p, w->at[w->length - 4],
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
 * unquoted space (isspace(), so also \r, \v and \f, which parser_skip()
 * does not skip) or at the end; a newline that ends it is left to be read
 * again.  A quote runs on over newlines, as in exportfs (we warn).
 *
 * Return: 1 for a word in p->word, 0 for an empty one, -1 if it has @size
 * bytes or more (then the rest is not read), and 0 once p->status is set.
 */
static int parser_gettok(struct parser *p, size_t size)
{
	struct word *w = &p->word;
	struct cursor before = p->at;
	struct where quote_at = { 0, 0 };
	bool quoted = false;
	bool warned = false;
	int c = 0;

	w->length = 0;
	w->start = parser_where(p);
	if (!word_reserve(w, 1)) {
		parser_no_memory(p);
		return 0;
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
			parser_warn(p, quote_at,
				    "quote runs past the end of the line: "
				    "exportfs reads on to the next quote");
			warned = true;
		}
		if (!word_append(w, (char)c, at)) {
			parser_no_memory(p);
			return 0;
		}
		parser_decode_tail(p);
	}
	if (p->status != BINO_OK)
		return 0;
	if (c == '\n')
		p->at = before;
	if (quoted && !warned)
		parser_warn(p, quote_at,
			    "unterminated quote: exportfs reads on to the end "
			    "of the file");
	if (w->length == 0)
		return 0;
	if (w->length >= size)
		return -1;
	return 1;
}

/* ------------------------------------------------------------------------ */
/* Options (parseopts())                                                    */
/* ------------------------------------------------------------------------ */

/* The keywords of parseopts() in nfs-utils 2.6.2 that take no value. */
static const char *const plain_options[] = {
	"ro", "rw", "secure", "insecure", "sync", "async", "nordirplus",
	"security_label", "nohide", "hide", "crossmnt", "nocrossmnt",
	"wdelay", "no_wdelay", "root_squash", "no_root_squash", "all_squash",
	"no_all_squash", "subtree_check", "no_subtree_check", "auth_nlm",
	"no_auth_nlm", "secure_locks", "insecure_locks", "acl", "no_acl",
	"pnfs", "no_pnfs", "mountpoint", "mp",
};

/* Its "name=" options whose value it takes as it is. */
static const char *const free_value_options[] = {
	"mountpoint", "mp", "refer", "replicas",
};

/* flav_map[] in exports.c. */
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

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_xdigit(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/*
 * Whether strtol(s, &end, 10) (@hex false) or strtoul(s, &end, 0) (@hex
 * true) reads all of @s: C-locale spaces, a sign, then digits; with base 0,
 * "0x" and hex digits or "0" and octal ones.  Overflow does not matter:
 * exportfs does not check errno.
 */
static bool is_c_integer(const char *s, size_t n, bool base0)
{
	size_t i = 0;
	size_t digits = 0;

	while (i < n && is_space((unsigned char)s[i]))
		i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	if (base0 && n - i > 2 && s[i] == '0' &&
	    (s[i + 1] == 'x' || s[i + 1] == 'X') && is_xdigit(s[i + 2])) {
		for (i += 2; i < n && is_xdigit(s[i]); i++)
			digits++;
	} else if (base0 && i < n && s[i] == '0') {
		for (; i < n && is_octal(s[i]); i++)
			digits++;
	} else {
		for (; i < n && is_digit(s[i]); i++)
			digits++;
	}
	return digits > 0 && i == n;
}

/* valid_uuid(): 32 hex digits, whatever else there is. */
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

/*
 * parsenum(): an optional '-' and digits from @s[*i], as atoi() reads them:
 * (int)strtol(), so out-of-range values saturate to LONG_MIN or LONG_MAX
 * and wrap to int as GCC does.
 */
static int parse_squash_number(const char *s, size_t n, size_t *i)
{
	unsigned long long v = 0;
	bool negative = false;
	bool over = false;
	long value;

	if (*i < n && s[*i] == '-') {
		negative = true;
		(*i)++;
	}
	for (; *i < n && is_digit(s[*i]); (*i)++) {
		unsigned int d = (unsigned int)(s[*i] - '0');

		if (v > (ULLONG_MAX - d) / 10)
			over = true;
		else
			v = v * 10 + d;
	}
	if (negative)
		value = over || v > (unsigned long long)LONG_MAX + 1 ? LONG_MIN :
			v == (unsigned long long)LONG_MAX + 1 ? LONG_MIN :
			-(long)v;
	else
		value = over || v > (unsigned long long)LONG_MAX ? LONG_MAX :
			(long)v;
	return (int)value;
}

/*
 * parsesquash() as exportfs calls it: on the option cut at its first comma,
 * so one id or range "a-b", then nothing or ')'.
 */
static const char *squash_check(const char *s, size_t n)
{
	size_t i = 0;
	int first = parse_squash_number(s, n, &i);
	int last = first;

	if (i < n && s[i] == '-') {
		i++;
		last = parse_squash_number(s, n, &i);
	}
	if (first == -1 || last == -1)
		return "uid/gid -1 not permitted";
	if (i < n && s[i] != ')')
		return "bad uid/gid list";
	return NULL;
}

/* parse_flavors(): flavours joined by ':'; the first unknown one, or NULL. */
static const char *sec_check(const char *s, size_t n, size_t *bad,
			     size_t *bad_length)
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
		if (!found) {
			*bad = start;
			*bad_length = i - start;
			return "unknown flavor";
		}
		start = i + 1;
	}
	return NULL;
}

/*
 * Check one option as parseopts() does.  On error, fill @message and return
 * the offset in @opt the error points at.
 */
static bool option_check(const char *opt, size_t n, char *message,
			 size_t size, size_t *offset)
{
	char quoted[128];
	const char *value;
	const char *why = NULL;
	const char *hint = "";
	size_t length;
	size_t bad = 0;
	size_t bad_length = n;
	size_t i;

	*offset = 0;
	for (i = 0; i < ARRAY_SIZE(plain_options); i++) {
		if (option_is(opt, n, plain_options[i]))
			return true;
	}
	for (i = 0; i < ARRAY_SIZE(free_value_options); i++) {
		if (option_has_value(opt, n, free_value_options[i], &value,
				     &length))
			return true;
	}
	if (option_has_value(opt, n, "anonuid", &value, &length)) {
		if (is_c_integer(value, length, false))
			return true;
		why = "bad anonuid";
	} else if (option_has_value(opt, n, "anongid", &value, &length)) {
		if (is_c_integer(value, length, false))
			return true;
		why = "bad anongid";
	} else if (option_has_value(opt, n, "squash_uids", &value, &length) ||
		   option_has_value(opt, n, "squash_gids", &value, &length)) {
		why = squash_check(value, length);
		if (!why)
			return true;
	} else if (option_has_value(opt, n, "fsid", &value, &length)) {
		if (option_is(value, length, "root") ||
		    is_c_integer(value, length, true) || is_uuid(value, length))
			return true;
		why = "bad fsid";
		hint = " (want a number, \"root\" or a UUID)";
	} else if (option_has_value(opt, n, "sec", &value, &length)) {
		why = sec_check(value, length, &bad, &bad_length);
		if (!why)
			return true;
		*offset = (size_t)(value - opt) + bad;
		quote_bytes(quoted, sizeof(quoted), value + bad, bad_length);
		snprintf(message, size, "%s \"%s\"", why, quoted);
		return false;
	} else {
		why = "unknown keyword";
	}
	quote_bytes(quoted, sizeof(quoted), opt, n);
	snprintf(message, size, "%s \"%s\"%s", why, quoted, hint);
	return false;
}

/*
 * Check the options in bytes [@begin, @end) of the current word and add them
 * to @list, as parseopts() reads them: blanks and tabs before an option are
 * dropped, an option ends at a comma, and a comma at the end is allowed.
 */
static bool parser_read_options(struct parser *p, size_t begin, size_t end,
				struct optlist *list)
{
	const struct word *w = &p->word;
	size_t i = begin;

	while (i < end && (w->bytes[i] == ' ' || w->bytes[i] == '\t'))
		i++;
	while (i < end) {
		const char *comma = memchr(w->bytes + i, ',', end - i);
		size_t stop = comma ? (size_t)(comma - w->bytes) : end;
		char message[sizeof(p->error.message)];
		size_t offset;

		if (!option_check(w->bytes + i, stop - i, message,
				  sizeof(message), &offset)) {
			parser_fail(p, w->at[i + offset < w->length ?
					     i + offset : i],
				    message);
			return false;
		}
		if (!optlist_add(list, w->bytes + i, stop - i)) {
			parser_no_memory(p);
			return false;
		}
		i = comma ? stop + 1 : end;
		while (i < end && (w->bytes[i] == ' ' || w->bytes[i] == '\t'))
			i++;
	}
	return true;
}

/* Apply the meaning of @list's options, in order, to @e's flags and fsid. */
static bool export_apply(struct bino_export *e, const struct optlist *list)
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
		}
	}
	return true;
}

/* ------------------------------------------------------------------------ */
/* Entries (getexportent())                                                 */
/* ------------------------------------------------------------------------ */

/*
 * Add (p->path, @client) with the line's defaults and the client's own
 * options (p->own) to the parser's list.  A relative path is left out: the
 * audit cannot place it (exportfs would resolve it from its own directory).
 */
static void parser_add_export(struct parser *p, const char *client,
			      size_t client_length)
{
	struct strbuf options = { 0 };
	struct bino_export *e;

	if (p->path[0] != '/')
		return;
	if (ARRAY_RESERVE(p->items, p->capacity, p->count + 1))
		goto no_memory;
	e = calloc(1, sizeof(*e));
	if (!e)
		goto no_memory;
	e->file = p->file;
	e->line = p->path_line;
	e->last_line = p->path_line;
	/* The default, as EXPORT_DEFAULT_FLAGS in nfs-utils. */
	e->flags = BINO_EXPORT_RO;
	e->path = strdup(p->path);
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
	if (!export_apply(e, &p->defaults) || !export_apply(e, &p->own))
		goto free_strings;
	e->options = strbuf_steal(&options);
	p->items[p->count++] = e;
	return;

free_strings:
	free(options.data);
free_export:
	export_free(e);
no_memory:
	parser_no_memory(p);
}

/*
 * One client word, or the empty one (@length 0): "host", "host(opts)" or
 * "(opts)".  The first '(' opens the list and the first ')' after it must
 * end the word.  The empty client is "*" (client_gettype() reads "" so).
 */
static void parser_read_client(struct parser *p)
{
	const struct word *w = &p->word;
	const char *open = memchr(w->bytes, '(', w->length);
	size_t host_length = open ? (size_t)(open - w->bytes) : w->length;
	char quoted[128];
	char message[sizeof(p->error.message)];

	optlist_reset(&p->own);
	if (open) {
		size_t begin = host_length + 1;
		const char *close = memchr(w->bytes + begin, ')',
					   w->length - begin);

		if (host_length == 0)
			parser_warn(p, w->start,
				    "no host name before the option list: "
				    "exportfs warns and exports to everyone (*)");
		if (!close) {
			parser_fail(p, w->at[host_length],
				    "bad option list: no ')' (an option list "
				    "may not contain unquoted blanks)");
			return;
		}
		if ((size_t)(close - w->bytes) + 1 != w->length) {
			parser_fail(p, w->at[close - w->bytes + 1],
				    "bad option list: text after ')'");
			return;
		}
		if (!parser_read_options(p, begin, (size_t)(close - w->bytes),
					 &p->own))
			return;
	} else if (!p->has_defaults) {
		if (w->length) {
			quote_bytes(quoted, sizeof(quoted), w->bytes, w->length);
			snprintf(message, sizeof(message),
				 "no options for client \"%s\": exportfs warns "
				 "and exports to it with the default options",
				 quoted);
		} else {
			snprintf(message, sizeof(message), "%s",
				 "no client and no options: exportfs warns and "
				 "exports to everyone (*) with the default "
				 "options");
		}
		parser_warn(p, w->start, message);
	}
	if (host_length == 0)
		parser_add_export(p, "*", 1);
	else
		parser_add_export(p, w->bytes, host_length);
}

/* getexport(): the next client word on the line; 0 at its end. */
static int parser_getexport(struct parser *p)
{
	parser_skip(p, false);
	return parser_gettok(p, EXPORTFS_CLIENT_SIZE);
}

/* The line being read ends here: its entries end on this line. */
static void parser_end_line(struct parser *p)
{
	for (; p->line_first < p->count; p->line_first++)
		p->items[p->line_first]->last_line = p->at.line;
}

/*
 * getpath(): the path that starts a line, in p->path.  Return false at the
 * end of the text or where exportfs stops reading.
 */
static bool parser_getpath(struct parser *p)
{
	struct cursor start;
	struct where at;
	int ok;

	parser_end_line(p);
	parser_skip(p, true);
	start = p->at;
	at = parser_where(p);
	ok = parser_gettok(p, EXPORTFS_PATH_SIZE);
	if (p->status != BINO_OK)
		return false;
	if (ok < 0) {
		parser_fail(p, at,
			    "path of 1025 bytes or more: exportfs stops "
			    "reading the file here");
		return false;
	}
	if (ok == 0) {
		/* exportfs stops; say so unless nothing was left to read. */
		parser_skip(p, true);
		if (parser_peek(p) != EOF)
			parser_fail(p, at,
				    p->text[start.pos] == '"' ?
				    "empty path (\"\"): exportfs stops reading "
				    "the file here" :
				    "\\r, \\v or \\f where a path should start "
				    "(a blank line of a CRLF file?): exportfs "
				    "stops reading the file here");
		return false;
	}
	free(p->path);
	p->path = strdup(p->word.bytes);
	if (!p->path) {
		parser_no_memory(p);
		return false;
	}
	p->path_line = p->word.start.line;
	if (p->path[0] != '/')
		parser_warn(p, p->word.start,
			    "path is not absolute: exportfs reads it, the "
			    "audit leaves it out");
	return true;
}

/* Fail on a client word of 512 bytes or more, as getexport() does. */
static bool parser_client_fits(struct parser *p, int ok)
{
	if (ok >= 0)
		return true;
	parser_fail(p, p->word.start,
		    "client of 512 bytes or more (exportfs: expected "
		    "client(options...)): exportfs stops reading the file here");
	return false;
}

/* getexportent() until it returns NULL. */
static void parser_run(struct parser *p)
{
	bool first = true;
	int ok = 0;

	while (p->status == BINO_OK) {
		if (first || (ok = parser_getexport(p)) == 0) {
			if (p->status != BINO_OK || !parser_getpath(p))
				break;
			p->has_defaults = false;
			optlist_reset(&p->defaults);
			ok = parser_getexport(p);
		}
		first = false;
		if (p->status != BINO_OK || !parser_client_fits(p, ok))
			break;
		if (ok > 0 && p->word.bytes[0] == '-') {
			if (!parser_read_options(p, 1, p->word.length,
						 &p->defaults))
				break;
			p->has_defaults = true;
			ok = parser_getexport(p);
			if (p->status != BINO_OK || !parser_client_fits(p, ok))
				break;
		}
		if (ok == 0) {
			p->word.length = 0;
			p->word.bytes[0] = '\0';
			p->word.start = parser_where(p);
		}
		parser_read_client(p);
	}
	parser_end_line(p);
}

static void parser_free(struct parser *p)
{
	size_t i;

	for (i = 0; i < p->count; i++)
		export_free(p->items[i]);
	for (i = 0; i < p->n_warnings; i++)
		free(p->warnings[i]);
	free(p->items);
	free(p->warnings);
	free(p->path);
	free(p->word.bytes);
	free(p->word.at);
	optlist_free(&p->defaults);
	optlist_free(&p->own);
}

/*
 * Move everything read into the table: the entries, the warnings and the
 * error that stopped the file.  Every array is grown first, so that once
 * this starts it cannot fail halfway.
 */
static enum bino_error exports_commit(struct bino_exports *exports,
				      struct parser *p, char *file)
{
	struct bino_syntax_error *error = NULL;
	void *files = exports->files;
	size_t files_capacity = exports->n_files;

	if (p->count > SIZE_MAX - exports->count ||
	    p->n_warnings > SIZE_MAX - exports->n_warnings ||
	    ARRAY_RESERVE(exports->items, exports->capacity,
			  exports->count + p->count) ||
	    ARRAY_RESERVE(exports->warnings, exports->warnings_capacity,
			  exports->n_warnings + p->n_warnings))
		return BINO_ERROR_NO_MEMORY;
	if (p->status == BINO_ERROR_EXPORTS_SYNTAX) {
		if (ARRAY_RESERVE(exports->errors, exports->errors_capacity,
				  exports->n_errors + 1))
			return BINO_ERROR_NO_MEMORY;
		error = malloc(sizeof(*error));
		if (!error)
			return BINO_ERROR_NO_MEMORY;
		*error = p->error;
	}
	if (p->count) {
		/* files has no spare capacity: its length is its capacity. */
		files = realloc(files,
				(files_capacity + 1) * sizeof(*exports->files));
		if (!files) {
			free(error);
			return BINO_ERROR_NO_MEMORY;
		}
		exports->files = files;
		exports->files[exports->n_files++] = file;
	} else {
		free(file);
	}
	if (error)
		exports->errors[exports->n_errors++] = error;
	if (p->n_warnings)
		memcpy(exports->warnings + exports->n_warnings, p->warnings,
		       p->n_warnings * sizeof(*p->warnings));
	exports->n_warnings += p->n_warnings;
	p->n_warnings = 0;
	if (p->count)
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
	for (i = 0; i < exports->n_errors; i++)
		free(exports->errors[i]);
	for (i = 0; i < exports->n_warnings; i++)
		free(exports->warnings[i]);
	free(exports->items);
	free(exports->files);
	free(exports->errors);
	free(exports->warnings);
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
		.at = { .line = 1 },
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

	parser_run(&p);
	ret = p.status;
	/* Unless out of memory, the table takes @file and what was read. */
	if (ret != BINO_ERROR_NO_MEMORY)
		ret = exports_commit(exports, &p, file);
	if (ret == BINO_ERROR_NO_MEMORY)
		free(file);
	else
		ret = p.status;
	if (ret == BINO_ERROR_EXPORTS_SYNTAX && err)
		*err = p.error;
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
	if (!export)
		return NULL;
	return export->path;
}

BINO_PUBLIC const char *bino_export_client(const struct bino_export *export)
{
	if (!export)
		return NULL;
	return export->client;
}

BINO_PUBLIC const char *bino_export_file(const struct bino_export *export)
{
	if (!export)
		return NULL;
	return export->file;
}

BINO_PUBLIC unsigned int bino_export_line(const struct bino_export *export)
{
	if (!export)
		return 0;
	return export->line;
}

BINO_PUBLIC unsigned int
bino_export_last_line(const struct bino_export *export)
{
	if (!export)
		return 0;
	return export->last_line;
}

BINO_PUBLIC const char *bino_export_options(const struct bino_export *export)
{
	if (!export)
		return NULL;
	return export->options;
}

BINO_PUBLIC int bino_export_flags(const struct bino_export *export)
{
	if (!export)
		return 0;
	return export->flags;
}

BINO_PUBLIC const char *bino_export_fsid(const struct bino_export *export)
{
	if (!export)
		return NULL;
	return export->fsid;
}

BINO_PUBLIC size_t bino_exports_error_count(const struct bino_exports *exports)
{
	return exports ? exports->n_errors : 0;
}

BINO_PUBLIC const struct bino_syntax_error *
bino_exports_error(const struct bino_exports *exports, size_t index)
{
	if (!exports || index >= exports->n_errors)
		return NULL;
	return exports->errors[index];
}

BINO_PUBLIC size_t
bino_exports_warning_count(const struct bino_exports *exports)
{
	return exports ? exports->n_warnings : 0;
}

BINO_PUBLIC const struct bino_syntax_error *
bino_exports_warning(const struct bino_exports *exports, size_t index)
{
	if (!exports || index >= exports->n_warnings)
		return NULL;
	return exports->warnings[index];
}
