/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A suggestion as data: the edits it makes to the server's files (which
 * file, which lines, the new text, why).  suggestion_server_mounts.c and
 * suggestion_exports.c make them; their text blocks, suggest --diff and
 * suggest --output-dir all render the same list, so what is printed is
 * what is applied.
 */
#ifndef BTRFS_INO_SUGGESTION_EDITS_H
#define BTRFS_INO_SUGGESTION_EDITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum edit_kind {
	EDIT_REPLACE, /* lines first-last of file become lines[] */
	EDIT_REMOVE, /* lines first-last of file go, for reason */
	EDIT_APPEND, /* lines[] go at the end of file */
	/* lines[] go before line first of file (last is first - 1) */
	EDIT_INSERT,
	EDIT_CREATE, /* file is written whole: lines[] */
	EDIT_EXAMPLE, /* lines[] for the admin to complete: shown, never applied */
	EDIT_NOTE, /* only reason, as a comment: nothing changes */
};

/* One edit; every string is owned by the list. */
struct edit {
	enum edit_kind kind;
	char *file; /* absolute; NULL for a note */
	size_t first; /* old lines, from 1: replace and remove */
	size_t last;
	char **lines; /* the new text, a line each without its newline */
	size_t n_lines;
	size_t cap_lines;
	char *reason; /* one line, or NULL */
};

/* The edits of one suggestion (or of all, for --diff), in order. */
struct edit_list {
	struct edit *edit;
	size_t n;
	size_t cap;
};

/*
 * Add an edit of @kind to @file (NULL for a note) and return its index, or
 * -1 with errno set (out of memory).  Indexes stay valid as the list grows; pointers do
 * not.
 */
long edit_add(struct edit_list *list, enum edit_kind kind, const char *file,
	      size_t first, size_t last);

/* Give edit @i the @len bytes of @text, split at newlines, as new lines; 0 or -1 with errno set. */
int edit_add_text(struct edit_list *list, long i, const char *text, size_t len);

/* Give edit @i its reason, printf-style; 0 or -1 with errno set. */
int edit_set_reason(struct edit_list *list, long i, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Copy edit @e of another list to the end of @list; 0 or -1 with errno set. */
int edit_copy(struct edit_list *list, const struct edit *e);

/* Whether @a and @b make the same change. */
bool edit_same(const struct edit *a, const struct edit *b);

void edit_list_free(struct edit_list *list);

/*
 * The edits as the text blocks show them, a line of comment where a file
 * change cannot be pasted: "# replace line(s) N[-M] of FILE with" and the
 * new lines, "# insert before line N of FILE" and the new lines,
 * "# remove line N of FILE: REASON", "# file: FILE" and the
 * file, and the lines to append or complete as they are.
 */
void edits_write_text(FILE *out, const struct edit_list *list);

#endif
