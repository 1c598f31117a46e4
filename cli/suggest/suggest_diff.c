/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * suggest --diff and --output-dir: the edits of the exports, server-fstab
 * and mount-units blocks (suggestion_edits(), the same list the text shows)
 * as unified diffs that patch(1) applies to the files as they are now, and
 * as unit files named as systemd requires.
 */
#include "diag.h"
#include "suggest_diff.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "cli.h"
#include "safe_file.h"
#include "suggestion_edits.h"

#define DIFF_CONTEXT 3

/* The edits of every path, exports files' and the server fstab's apart. */
struct suggest_diff {
	struct edit_list exports;
	struct edit_list fstab;
};

struct suggest_diff *suggest_diff_create(void)
{
	return calloc(1, sizeof(struct suggest_diff));
}

void suggest_diff_destroy(struct suggest_diff *diff)
{
	if (!diff)
		return;
	edit_list_free(&diff->exports);
	edit_list_free(&diff->fstab);
	free(diff);
}

/* ---- collecting the edits ---------------------------------------------- */

static bool overlap(const struct edit *a, const struct edit *b)
{
	return a->kind != EDIT_APPEND && b->kind != EDIT_APPEND &&
	       strcmp(a->file, b->file) == 0 && a->first <= b->last &&
	       b->first <= a->last;
}

/*
 * Add @e unless @list makes that change already (another path the same
 * line or fstab line concerns); two different changes of one line are
 * refused.  Returns 0, or -1 said on stderr.
 */
static int add_edit(struct edit_list *list, const struct edit *e)
{
	size_t i;

	for (i = 0; i < list->n; i++) {
		if (edit_same(&list->edit[i], e))
			return 0;
		if (overlap(&list->edit[i], e)) {
			diag_path(e->file, "two suggestions change line %zu: "
					   "apply one, then run suggest again",
				  e->first);
			return -1;
		}
	}
	if (edit_copy(list, e) != 0) {
		diag_no_memory();
		return -1;
	}
	return 0;
}

/* @block's edits for @target into @to: 0, or -1 with the reason on stderr. */
static int add_block(struct edit_list *to, const struct suggest_config *config,
		     const struct bino_audit_target *target,
		     enum suggest_block block)
{
	struct edit_list list = { 0 };
	size_t i;
	int rc = suggestion_edits(config, target, block, &list);

	for (i = 0; rc == 0 && i < list.n; i++) {
		const struct edit *e = &list.edit[i];

		if (e->kind == EDIT_REPLACE || e->kind == EDIT_REMOVE ||
		    e->kind == EDIT_APPEND || e->kind == EDIT_INSERT)
			rc = add_edit(to, e);
		else if (e->kind == EDIT_EXAMPLE)
			/* Nothing exports it: the clients are the admin's choice. */
			diag_path(bino_audit_target_path(target),
				  "not exported: no exports change is made; "
				  "add a line for its clients (see suggest --format exports)");
	}
	edit_list_free(&list);
	return rc;
}

int suggest_diff_add(struct suggest_diff *diff,
		     const struct suggest_config *config,
		     const struct bino_audit_target *target)
{
	if (add_block(&diff->exports, config, target, SUGGEST_EXPORTS) != 0)
		return -1;
	return add_block(&diff->fstab, config, target, SUGGEST_SERVER_FSTAB);
}

/* ---- one file ---------------------------------------------------------- */

/* Lines of text, each without its newline. */
struct lines {
	char **line;
	size_t n;
	size_t cap;
};

static void lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

static bool lines_has(char *const *line, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strcmp(line[i], s) == 0)
			return true;
	}
	return false;
}

/*
 * The file as it is now (missing is empty); *@unended: no final newline.
 * Returns 0, or -1 with the reason on stderr.
 */
static int read_lines(const char *name, struct lines *l, bool *unended)
{
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	FILE *f = fopen(name, "re");
	int rc = 0;

	*unended = false;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		diag_path(name, "%s", strerror(errno));
		return -1;
	}
	while ((len = getline(&line, &size, f)) > 0) {
		*unended = line[len - 1] != '\n';
		if (!*unended)
			line[len - 1] = '\0';
		if (ARRAY_RESERVE(l->line, l->cap, l->n + 1) != 0) {
			rc = -1;
			break;
		}
		l->line[l->n++] = line;
		line = NULL;
		size = 0;
	}
	if (rc == 0 && ferror(f)) {
		diag_path(name, "%s", strerror(errno));
		rc = -1;
	} else if (rc) {
		diag_no_memory();
	}
	free(line);
	fclose(f);
	return rc;
}

/*
 * Old lines [first, last] (1-based) become the @n lines at @line; none
 * (last is first - 1): they go before line first.
 */
struct change {
	size_t first;
	size_t last;
	char *const *line;
	size_t n;
	size_t seq; /* in the order of the edits: parents first */
};

/* The changes to one file, and what they are made from. */
struct file_diff {
	const char *name;
	struct lines old;
	bool unended; /* the old file's last line has no newline */
	struct change *change;
	size_t n_changes, cap_changes;
	char **appended; /* borrowed lines, the last line first when unended */
	size_t n_appended, cap_appended;
};

/* Returns 0, or -1 with errno set (out of memory). */
static int add_change(struct file_diff *fd, size_t first, size_t last,
		      char *const *line, size_t n)
{
	if (ARRAY_RESERVE(fd->change, fd->cap_changes, fd->n_changes + 1) != 0)
		return -1;
	fd->change[fd->n_changes] = (struct change){ first, last, line, n,
						     fd->n_changes };
	fd->n_changes++;
	return 0;
}

/* Whether @e's new lines are the old lines it replaces: no change. */
static bool no_change(const struct file_diff *fd, const struct edit *e)
{
	size_t j;

	if (e->kind != EDIT_REPLACE || e->n_lines != e->last + 1 - e->first)
		return false;
	for (j = 0; j < e->n_lines; j++) {
		if (strcmp(e->lines[j], fd->old.line[e->first - 1 + j]) != 0)
			return false;
	}
	return true;
}

/*
 * A line to append, unless the file (or an earlier append) has it: once
 * applied, a line is not suggested again.  Returns 0, or -1 with errno set
 * (out of memory).
 */
static int add_appended(struct file_diff *fd, char *line)
{
	if (lines_has(fd->old.line, fd->old.n, line) ||
	    lines_has(fd->appended, fd->n_appended, line))
		return 0;
	if (ARRAY_RESERVE(fd->appended, fd->cap_appended, fd->n_appended + 1) != 0)
		return -1;
	fd->appended[fd->n_appended++] = line;
	return 0;
}

/*
 * The changes of @list's edits to fd->name.  Returns 0, or -1 with the
 * reason on stderr.
 */
static int collect(struct file_diff *fd, const struct edit_list *list)
{
	size_t i, j;

	/* Unended, the last line is replaced by itself with its newline. */
	if (fd->unended && fd->old.n) {
		if (ARRAY_RESERVE(fd->appended, fd->cap_appended, 1) != 0)
			goto no_memory;
		fd->appended[fd->n_appended++] = fd->old.line[fd->old.n - 1];
	}
	for (i = 0; i < list->n; i++) {
		const struct edit *e = &list->edit[i];

		if (strcmp(e->file, fd->name) != 0)
			continue;
		if (e->kind == EDIT_APPEND) {
			for (j = 0; j < e->n_lines; j++) {
				if (add_appended(fd, e->lines[j]) != 0)
					goto no_memory;
			}
			continue;
		}
		if (e->last > fd->old.n) {
			diag_path(fd->name, "has %zu lines, not %zu: changed since it was read?",
				  fd->old.n, e->last);
			return -1;
		}
		if (!no_change(fd, e) &&
		    add_change(fd, e->first, e->last, e->lines, e->n_lines) != 0)
			goto no_memory;
	}
	/* Lines only added, after the last line (given its newline). */
	if (fd->n_appended > (fd->unended && fd->old.n ? 1u : 0u)) {
		size_t first = fd->unended && fd->old.n ? fd->old.n : fd->old.n + 1;

		if (add_change(fd, first, fd->old.n, fd->appended, fd->n_appended) != 0)
			goto no_memory;
	}
	return 0;
no_memory:
	diag_no_memory();
	return -1;
}

/*
 * By line; at one line, lines inserted before it come before a change of
 * it, each in the order of the edits (a parent's line before its child's).
 */
static int compare_changes(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	bool x_insert = x->last < x->first, y_insert = y->last < y->first;

	if (x->first != y->first)
		return x->first > y->first ? 1 : -1;
	if (x_insert != y_insert)
		return x_insert ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* One old line in a hunk, with patch's mark when it ends the file unended. */
static void put_line(FILE *out, char mark, const char *line, bool unended)
{
	fprintf(out, "%c%s\n", mark, line);
	if (unended)
		fputs("\\ No newline at end of file\n", out);
}

/* Write changes [@from, @to) of @fd as one hunk. */
static void put_hunk(FILE *out, const struct file_diff *fd, size_t from,
		     size_t to, long *offset)
{
	const struct change *c = fd->change;
	size_t n = fd->old.n, i, j, line;
	size_t start = c[from].first > DIFF_CONTEXT ? c[from].first - DIFF_CONTEXT : 1;
	size_t end = c[to - 1].last + DIFF_CONTEXT;
	size_t old_count, new_count;

	if (end > n)
		end = n;
	old_count = end >= start ? end - start + 1 : 0;
	new_count = old_count;
	for (i = from; i < to; i++)
		new_count += c[i].n - (c[i].last + 1 - c[i].first);
	fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", old_count ? start : start - 1,
		old_count, (size_t)((long)(new_count ? start : start - 1) + *offset),
		new_count);
	line = start;
	for (i = from; i < to; i++) {
		for (; line < c[i].first && line <= n; line++)
			put_line(out, ' ', fd->old.line[line - 1], fd->unended && line == n);
		for (; line <= c[i].last; line++)
			put_line(out, '-', fd->old.line[line - 1], fd->unended && line == n);
		for (j = 0; j < c[i].n; j++)
			put_line(out, '+', c[i].line[j], false);
	}
	for (; line <= end; line++)
		put_line(out, ' ', fd->old.line[line - 1], fd->unended && line == n);
	*offset += (long)new_count - (long)old_count;
}

/* The name patch -p0 finds from "/": the absolute path without its "/". */
static void put_name(FILE *out, const char *mark, const char *name)
{
	char cwd[4096];

	if (name[0] == '/')
		fprintf(out, "%s %s\n", mark, name + 1);
	else if (getcwd(cwd, sizeof(cwd)))
		fprintf(out, "%s %s/%s\n", mark, strcmp(cwd, "/") ? cwd + 1 : "",
			name);
	else
		fprintf(out, "%s %s\n", mark, name);
}

/* The diff of the file @name from the edits of @list: 0, or -1 with the reason on stderr. */
static int write_file_diff(FILE *out, const char *name,
			   const struct edit_list *list)
{
	struct file_diff fd = { .name = name };
	long offset = 0;
	size_t i, from;
	int rc = read_lines(name, &fd.old, &fd.unended);

	if (rc == 0 && collect(&fd, list) != 0)
		rc = -1;
	if (rc == 0 && fd.n_changes) {
		qsort(fd.change, fd.n_changes, sizeof(*fd.change), compare_changes);
		put_name(out, "---", name);
		put_name(out, "+++", name);
		for (from = 0; from < fd.n_changes; from = i) {
			/* Changes whose context touches go in one hunk. */
			for (i = from + 1; i < fd.n_changes &&
					   fd.change[i].first <= fd.change[i - 1].last +
									 2 * DIFF_CONTEXT + 1;
			     i++)
				;
			put_hunk(out, &fd, from, i, &offset);
		}
	}
	free(fd.change);
	free(fd.appended);
	lines_free(&fd.old);
	return rc;
}

/*
 * A diff per file @list changes, in the order the files first appear: 0,
 * or -1 with the reason on stderr (the others are still written).
 */
static int write_list(FILE *out, const struct edit_list *list)
{
	size_t i, j;
	int rc = 0;

	for (i = 0; i < list->n; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(list->edit[j].file, list->edit[i].file) == 0)
				break;
		}
		if (j == i && write_file_diff(out, list->edit[i].file, list) != 0)
			rc = -1;
	}
	return rc;
}

int suggest_diff_write(struct suggest_diff *diff, enum suggest_block block,
		       FILE *out)
{
	int rc = 0;

	/* Exports files first, then the fstab. */
	if (block != SUGGEST_SERVER_FSTAB && write_list(out, &diff->exports) != 0)
		rc = -1;
	if (block != SUGGEST_EXPORTS && write_list(out, &diff->fstab) != 0)
		rc = -1;
	return rc;
}

/* ---- mount units ------------------------------------------------------- */

/* Where --output-dir writes, and whether to say each file written. */
struct unit_dir {
	int fd;
	const char *name; /* as the user named it, for messages */
	bool verbose;
};

/*
 * The unit of edit @e into the directory, through safe_file: never through
 * a link someone put there.  Returns 0, or -1 with the reason on stderr
 * (safe_file.h).
 */
static int write_unit(const struct unit_dir *dir, const struct edit *e)
{
	const char *name = strrchr(e->file, '/') + 1;
	struct safe_file file;
	size_t i;

	if (safe_file_begin(&file, dir->fd, dir->name, name) != 0)
		return -1;
	for (i = 0; i < e->n_lines; i++) {
		if (safe_file_write(&file, e->lines[i], strlen(e->lines[i])) != 0 ||
		    safe_file_write(&file, "\n", 1) != 0) {
			safe_file_discard(&file);
			return -1;
		}
	}
	if (safe_file_commit(&file, 0644) != 0)
		return -1;
	if (dir->verbose)
		diag_message("wrote %s/%s", dir->name, name);
	return 0;
}

int suggest_write_units(const struct suggest_config *config,
			const struct bino_audit_target *target, int dir_fd,
			const char *dir, bool verbose)
{
	const struct unit_dir out = { dir_fd, dir, verbose };
	struct edit_list list = { 0 };
	size_t i;
	int rc = suggestion_edits(config, target, SUGGEST_MOUNT_UNITS, &list);

	for (i = 0; rc == 0 && i < list.n; i++) {
		if (list.edit[i].kind == EDIT_CREATE)
			rc = write_unit(&out, &list.edit[i]);
	}
	edit_list_free(&list);
	return rc;
}
