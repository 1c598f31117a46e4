/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The exports(5) table and its parser's entry level: reads /etc/exports
 * text the way nfs-utils 2.6.2's exportfs does (getexportent() in
 * support/nfs/exports.c, export_read() in support/export/export.c), so that
 * what we describe is what the server will export.  exportfs stops reading
 * a file at its first error and keeps the entries before it; so do we, and
 * we say where, by file:line:column.  What exportfs only warns about is kept
 * in the table as a warning.  The words come from exports_lex.c, the option
 * lists are checked by exports_options.c (see exports_parse.h).
 *
 * Components:
 *  - parser_getpath(), parser_getexport(), parser_read_client() and
 *    parser_add_export(): one (path, client) pair of a line and its
 *    options, "-defaults" first (later options win).
 *  - parser_run(): getexportent() called until it returns NULL.
 *  - exports_commit(): moves what was read, the warnings and the error that
 *    stopped the file into the table, all or (out of memory) nothing.
 *  - the public API: bino_exports_add_buffer(), bino_exports_add_file() and
 *    the getters.
 */
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
#include "exports_parse.h"

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

static void export_free(struct bino_export *export)
{
	if (!export)
		return;
	free(export->path);
	free(export->client);
	free(export->options);
	free(export->fsid);
	bino__export_settings_free(export);
	free(export);
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
	if (!bino__strbuf_append(&options, "", 0) ||
	    !bino__strbuf_append_item(&options, p->defaults.text.data,
				      p->defaults.text.length) ||
	    (p->own.text.length &&
	     !bino__strbuf_append_item(&options, p->own.text.data,
				       p->own.text.length)))
		goto free_strings;
	e->options = bino__strbuf_steal(&options);
	if (bino__export_apply(e) != BINO_OK)
		goto free_export;
	p->items[p->count++] = e;
	return;

free_strings:
	free(options.data);
free_export:
	export_free(e);
no_memory:
	bino__parser_no_memory(p);
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

	bino__optlist_reset(&p->own);
	if (open) {
		size_t begin = host_length + 1;
		const char *close = memchr(w->bytes + begin, ')',
					   w->length - begin);

		if (host_length == 0)
			bino__parser_warn(p, w->start,
					  "no host name before the option "
					  "list: exportfs warns and exports "
					  "to everyone (*)");
		if (!close) {
			bino__parser_fail(p, w->at[host_length],
					  "bad option list: no ')' (an "
					  "option list may not contain "
					  "unquoted blanks)");
			return;
		}
		if ((size_t)(close - w->bytes) + 1 != w->length) {
			bino__parser_fail(p, w->at[close - w->bytes + 1],
					  "bad option list: text after ')'");
			return;
		}
		if (!bino__parser_read_options(p, begin,
					       (size_t)(close - w->bytes),
					       &p->own))
			return;
	} else if (!p->has_defaults) {
		if (w->length) {
			bino__quote_bytes(quoted, sizeof(quoted), w->bytes,
					  w->length);
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
		bino__parser_warn(p, w->start, message);
	}
	if (host_length == 0)
		parser_add_export(p, "*", 1);
	else
		parser_add_export(p, w->bytes, host_length);
}

/* getexport(): the next client word on the line; 0 at its end. */
static enum parser_word parser_getexport(struct parser *p)
{
	bino__parser_skip(p, false);
	return bino__parser_gettok(p, EXPORTFS_CLIENT_SIZE);
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
	enum parser_word word;

	parser_end_line(p);
	bino__parser_skip(p, true);
	start = p->at;
	at = bino__parser_where(p);
	word = bino__parser_gettok(p, EXPORTFS_PATH_SIZE);
	if (p->status != BINO_OK)
		return false;
	if (word == PARSER_WORD_TOO_LONG) {
		bino__parser_fail(p, at,
				  "path of 1025 bytes or more: exportfs stops "
				  "reading the file here");
		return false;
	}
	if (word == PARSER_WORD_EMPTY) {
		/* exportfs stops; say so unless nothing was left to read. */
		bino__parser_skip(p, true);
		if (bino__parser_peek(p) != EOF)
			bino__parser_fail(p, at,
					  p->text[start.pos] == '"' ?
					  "empty path (\"\"): exportfs stops "
					  "reading the file here" :
					  "\\r, \\v or \\f where a path should "
					  "start (a blank line of a CRLF "
					  "file?): exportfs stops reading the "
					  "file here");
		return false;
	}
	free(p->path);
	p->path = strdup(p->word.bytes);
	if (!p->path) {
		bino__parser_no_memory(p);
		return false;
	}
	p->path_line = p->word.start.line;
	if (p->path[0] != '/')
		bino__parser_warn(p, p->word.start,
				  "path is not absolute: exportfs reads it, "
				  "the audit leaves it out");
	return true;
}

/* Fail on a client word of 512 bytes or more, as getexport() does. */
static bool parser_client_fits(struct parser *p, enum parser_word word)
{
	if (word != PARSER_WORD_TOO_LONG)
		return true;
	bino__parser_fail(p, p->word.start,
			  "client of 512 bytes or more (exportfs: "
			  "expected client(options...)): exportfs stops "
			  "reading the file here");
	return false;
}

/* getexportent() until it returns NULL. */
static void parser_run(struct parser *p)
{
	enum parser_word word = PARSER_WORD_EMPTY;
	bool first = true;

	while (p->status == BINO_OK) {
		if (first || (word = parser_getexport(p)) == PARSER_WORD_EMPTY) {
			if (p->status != BINO_OK || !parser_getpath(p))
				break;
			p->has_defaults = false;
			bino__optlist_reset(&p->defaults);
			word = parser_getexport(p);
		}
		first = false;
		if (p->status != BINO_OK || !parser_client_fits(p, word))
			break;
		if (word == PARSER_WORD_READ && p->word.bytes[0] == '-') {
			if (!bino__parser_read_options(p, 1, p->word.length,
						       &p->defaults))
				break;
			p->has_defaults = true;
			word = parser_getexport(p);
			if (p->status != BINO_OK ||
			    !parser_client_fits(p, word))
				break;
		}
		if (word == PARSER_WORD_EMPTY) {
			p->word.length = 0;
			p->word.bytes[0] = '\0';
			p->word.start = bino__parser_where(p);
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
	bino__optlist_free(&p->defaults);
	bino__optlist_free(&p->own);
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

/*
 * Read a whole file; exports files are small, and may hold any byte.
 * BINO_OK with *@text (malloc'ed) and *@length; else
 * BINO_ERROR_EXPORTS_READ_FAILED or BINO_ERROR_NO_MEMORY, the cause in
 * *@errnum.
 */
static enum bino_error read_file(const char *path, char **text, size_t *length,
				 int *errnum)
{
	enum bino_error err = BINO_ERROR_EXPORTS_READ_FAILED;
	size_t capacity = 0;
	size_t used = 0;
	char *data = NULL;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*errnum = errno;
		return BINO_ERROR_EXPORTS_READ_FAILED;
	}
	for (;;) {
		ssize_t n;

		if (ARRAY_RESERVE(data, capacity, used + 4096)) {
			*errnum = ENOMEM;
			err = BINO_ERROR_NO_MEMORY;
			goto free_data;
		}
		n = read(fd, data + used, capacity - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*errnum = errno;
			goto free_data;
		}
		if (n == 0)
			break;
		used += (size_t)n;
	}
	close(fd);
	*text = data;
	*length = used;
	return BINO_OK;

free_data:
	free(data);
	close(fd);
	return err;
}

BINO_PUBLIC enum bino_error
bino_exports_add_file(struct bino_exports *exports, const char *path,
		      struct bino_syntax_error *err)
{
	enum bino_error ret;
	size_t length;
	char *text;
	int errnum;

	if (err)
		memset(err, 0, sizeof(*err));
	if (!exports || !path)
		return BINO_ERROR_INVALID_ARGUMENT;
	ret = read_file(path, &text, &length, &errnum);
	if (ret != BINO_OK) {
		errno = errnum; /* the seam: errno for the caller */
		return ret;
	}
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
