/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The exports(5) parser's state, shared by the files that make it up (as
 * libmount's mountP.h): one exports entry (struct bino_export), the parser
 * (struct parser) with the word it is reading, and the steps one file asks
 * of another:
 *
 *  - exports.c: the table, the public API and the entries of a line
 *    (getexportent());
 *  - exports_lex.c: the word reader (xio.c: bytes, continuations, quotes,
 *    escapes) and the diagnostics that say where;
 *  - exports_options.c: the option lists (parseopts()) and what they mean
 *    for an entry.
 */
#ifndef BINO_EXPORTS_PARSE_H
#define BINO_EXPORTS_PARSE_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"
#include "strbuf.h"

/*
 * The sizes of getexportent()'s buffers (e_path[NFS_MAXPATHLEN + 1] and
 * exp[512]): a path of 1025 bytes or more, or a client word of 512 or more,
 * stops exportfs.
 */
#define EXPORTFS_PATH_SIZE 1025
#define EXPORTFS_CLIENT_SIZE 512

/*
 * What exports(5) options decide, each one setting (exports_options.c has
 * their names, defaults and the options that set them).
 */
enum export_setting {
	SETTING_ACCESS,
	SETTING_SYNC,
	SETTING_WDELAY,
	SETTING_HIDE,
	SETTING_CROSSMNT,
	SETTING_SECURE,
	SETTING_ROOT_SQUASH,
	SETTING_ALL_SQUASH,
	SETTING_SUBTREE_CHECK,
	SETTING_LOCKS,
	SETTING_ACL,
	SETTING_PNFS,
	SETTING_RDIRPLUS,
	SETTING_SECURITY_LABEL,
	SETTING_MOUNTPOINT,
	SETTING_FSID,
	SETTING_ANONUID,
	SETTING_ANONGID,
	SETTING_SEC,
	SETTING_REFER,
	SETTING_REPLICAS,
	SETTING_NR,
};

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
	/* What the options set, as exportfs writes it; NULL: the default. */
	char *setting[SETTING_NR];
	/* The options that set none of them, as written, each once. */
	char **other;
	size_t n_other;
	size_t cap_other;
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

/* isspace() in the C locale. */
static inline bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

static inline bool is_octal(int c)
{
	return c >= '0' && c <= '7';
}

/* exports_lex.c: reading words, and saying where. */

/* Where the parser is now, as a line and a column from 1. */
struct where bino__parser_where(const struct parser *p);
/* Stop reading at @w with @message: the first failure wins. */
void bino__parser_fail(struct parser *p, struct where w, const char *message);
/* Stop reading: out of memory (unless already stopped). */
void bino__parser_no_memory(struct parser *p);
/* Keep a warning at @w and read on. */
void bino__parser_warn(struct parser *p, struct where w, const char *message);
/* @n bytes of @s quoted for a message, \ooo for what is not printable. */
void bino__quote_bytes(char *out, size_t size, const char *s, size_t n);
/* The next byte without reading it; EOF at the end or once stopped. */
int bino__parser_peek(const struct parser *p);
/* xskip(): blanks and comments, and newlines too if @newlines. */
void bino__parser_skip(struct parser *p, bool newlines);
/* What xgettok() read (it returns 1, 0 and -1 for these). */
enum parser_word {
	PARSER_WORD_EMPTY, /* none, or the parser stopped */
	PARSER_WORD_READ, /* a word, in p->word */
	PARSER_WORD_TOO_LONG, /* @size bytes or more: the rest not read */
};

/* xgettok(): one word into p->word. */
enum parser_word bino__parser_gettok(struct parser *p, size_t size);

/* exports_options.c: option lists and what they mean. */

void bino__optlist_reset(struct optlist *list);
void bino__optlist_free(struct optlist *list);
/*
 * parseopts(): check the options in bytes [@begin, @end) of p->word and add
 * them to @list; false (and p stopped) on the first bad one.
 */
bool bino__parser_read_options(struct parser *p, size_t begin, size_t end,
			       struct optlist *list);
/*
 * What e->options mean, in order (later ones win): e's settings, the
 * options of no setting, flags and fsid.  BINO_OK or BINO_ERROR_NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino__export_apply(struct bino_export *e);
/* Free what bino__export_apply() made. */
void bino__export_settings_free(struct bino_export *e);

#endif
