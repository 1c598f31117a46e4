/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The edit list of a suggestion, and the one way its text blocks show it. */
#include "suggestion_edits.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "quote.h"

long edit_add(struct edit_list *list, enum edit_kind kind, const char *file,
	      size_t first, size_t last)
{
	struct edit *e;

	if (ARRAY_RESERVE(list->edit, list->cap, list->n + 1) != 0)
		return -1;
	e = &list->edit[list->n];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->first = first;
	e->last = last;
	if (file && !(e->file = strdup(file)))
		return -1;
	return (long)list->n++;
}

static int edit_add_line(struct edit *e, const char *line, size_t len)
{
	char *copy;

	if (ARRAY_RESERVE(e->lines, e->cap_lines, e->n_lines + 1) != 0)
		return -1;
	copy = strndup(line, len);
	if (!copy)
		return -1;
	e->lines[e->n_lines++] = copy;
	return 0;
}

int edit_add_text(struct edit_list *list, long i, const char *text, size_t len)
{
	struct edit *e = &list->edit[i];
	const char *end = text + len;

	while (text < end) {
		const char *nl = memchr(text, '\n', (size_t)(end - text));
		size_t n = nl ? (size_t)(nl - text) : (size_t)(end - text);

		if (edit_add_line(e, text, n) != 0)
			return -1;
		text += n + 1;
	}
	return 0;
}

int edit_set_reason(struct edit_list *list, long i, const char *fmt, ...)
{
	struct edit *e = &list->edit[i];
	va_list ap;
	int n;

	free(e->reason);
	va_start(ap, fmt);
	n = vasprintf(&e->reason, fmt, ap);
	va_end(ap);
	if (n < 0)
		e->reason = NULL;
	return n < 0 ? -1 : 0;
}

int edit_copy(struct edit_list *list, const struct edit *e)
{
	long i = edit_add(list, e->kind, e->file, e->first, e->last);
	size_t j;

	if (i < 0 || (e->reason && edit_set_reason(list, i, "%s", e->reason) != 0))
		return -1;
	for (j = 0; j < e->n_lines; j++) {
		if (edit_add_line(&list->edit[i], e->lines[j], strlen(e->lines[j])) != 0)
			return -1;
	}
	return 0;
}

bool edit_same(const struct edit *a, const struct edit *b)
{
	size_t j;

	if (a->kind != b->kind || a->first != b->first || a->last != b->last ||
	    a->n_lines != b->n_lines || !a->file != !b->file ||
	    (a->file && strcmp(a->file, b->file) != 0))
		return false;
	for (j = 0; j < a->n_lines; j++) {
		if (strcmp(a->lines[j], b->lines[j]) != 0)
			return false;
	}
	return true;
}

void edit_list_free(struct edit_list *list)
{
	size_t i, j;

	for (i = 0; i < list->n; i++) {
		struct edit *e = &list->edit[i];

		for (j = 0; j < e->n_lines; j++)
			free(e->lines[j]);
		free(e->lines);
		free(e->file);
		free(e->reason);
	}
	free(list->edit);
	memset(list, 0, sizeof(*list));
}

/* "line 3 of FILE", or "lines 3-5 of FILE". */
static void put_range(FILE *out, const struct edit *e)
{
	if (e->last > e->first)
		fprintf(out, "lines %zu-%zu of ", e->first, e->last);
	else
		fprintf(out, "line %zu of ", e->first);
	quote_fstab_field(out, e->file);
}

static void edit_write_text(FILE *out, const struct edit *e)
{
	size_t j;

	switch (e->kind) {
	case EDIT_REPLACE:
		fputs("# replace ", out);
		put_range(out, e);
		fputs(" with\n", out);
		break;
	case EDIT_INSERT:
		fprintf(out, "# insert before line %zu of ", e->first);
		quote_fstab_field(out, e->file);
		fputs(" (parents first)\n", out);
		break;
	case EDIT_REMOVE:
		fputs("# remove ", out);
		put_range(out, e);
		fprintf(out, ": %s\n", e->reason ? e->reason : "no longer needed");
		return;
	case EDIT_CREATE:
		fputs("\n# file: ", out);
		fputs(e->file, out);
		fputc('\n', out);
		break;
	case EDIT_NOTE:
		fprintf(out, "# %s\n", e->reason ? e->reason : "");
		return;
	case EDIT_APPEND:
	case EDIT_EXAMPLE:
		break;
	}
	for (j = 0; j < e->n_lines; j++)
		fprintf(out, "%s\n", e->lines[j]);
}

void edits_write_text(FILE *out, const struct edit_list *list)
{
	size_t i;

	for (i = 0; i < list->n; i++)
		edit_write_text(out, &list->edit[i]);
}
