/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * suggest --diff and --output-dir: what the exports, server-fstab and
 * mount-units blocks say (suggestion.c renders them; this file reads them
 * back) as unified diffs that patch(1) applies to the files as they are now,
 * and as unit files named as systemd requires.
 */
#include "diag.h"
#include "suggest_diff.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "btrfs-ino.h"
#include "escape.h"
#include "safe_file.h"

#define SYSTEM_EXPORTS "/etc/exports"
#define UNIT_DIR_PREFIX "# file: /etc/systemd/system/"
#define DIFF_CONTEXT 3

/* Lines of text, each without its newline. */
struct lines {
	char **line;
	size_t n;
	size_t size;
};

/* Old lines [first, last] (1-based) become @new; an append has first = n + 1. */
struct edit {
	size_t first;
	size_t last;
	struct lines new;
};

/* One file to change. */
struct target {
	char *name;
	bool fstab;
	struct edit *edit;
	size_t n_edits, cap_edits;
	struct lines appended; /* fstab lines, in order */
};

struct suggest_diff {
	char *exports_file;
	char *fstab_file;
	struct target *target;
	size_t n_targets, cap_targets;
};

/* ---- small pieces ------------------------------------------------------ */

static bool lines_add(struct lines *l, const char *s, size_t n)
{
	char *copy;

	if (ARRAY_RESERVE(l->line, l->size, l->n + 1) != 0)
		return false;
	copy = strndup(s, n);
	if (!copy)
		return false;
	l->line[l->n++] = copy;
	return true;
}

static void lines_free(struct lines *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->line[i]);
	free(l->line);
	memset(l, 0, sizeof(*l));
}

static bool lines_has(const struct lines *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		if (strcmp(l->line[i], s) == 0)
			return true;
	}
	return false;
}

/* Split @text of @len bytes into lines; *@newline_at_end tells the last one's. */
static bool lines_split(struct lines *l, const char *text, size_t len,
			bool *newline_at_end)
{
	const char *p = text, *end = text + len;

	*newline_at_end = true;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (!lines_add(l, p, n))
			return false;
		if (!nl)
			*newline_at_end = false;
		p += n + 1;
	}
	return true;
}

static bool is_comment_or_blank(const char *line)
{
	return line[strspn(line, " \t")] == '\0' || line[0] == '#';
}

/* One block of the suggestion for @target, split into lines. */
static int block_lines(const struct suggest_config *config,
		       const struct bino_audit_target *target,
		       enum suggest_block block, struct lines *out)
{
	char *text = NULL;
	size_t len = 0;
	bool needed, newline;
	FILE *stream = open_memstream(&text, &len);
	int rc;

	if (!stream) {
		diag_message("%s", strerror(errno));
		return -1;
	}
	rc = suggestion_write(config, target, block, stream, &needed);
	if (fclose(stream) != 0) {
		diag_message("%s", strerror(errno));
		rc = -1;
	}
	if (rc == 0 && needed && !lines_split(out, text, len, &newline)) {
		diag_no_memory();
		rc = -1;
	}
	free(text);
	return rc;
}

/* ---- collecting the changes -------------------------------------------- */

struct suggest_diff *suggest_diff_create(const char *exports_file,
					 const char *fstab_file)
{
	struct suggest_diff *diff = calloc(1, sizeof(*diff));

	if (!diff)
		return NULL;
	diff->exports_file = strdup(exports_file ? exports_file : SYSTEM_EXPORTS);
	diff->fstab_file = strdup(fstab_file);
	if (!diff->exports_file || !diff->fstab_file) {
		suggest_diff_destroy(diff);
		return NULL;
	}
	return diff;
}

void suggest_diff_destroy(struct suggest_diff *diff)
{
	size_t i, j;

	if (!diff)
		return;
	for (i = 0; i < diff->n_targets; i++) {
		struct target *t = &diff->target[i];

		for (j = 0; j < t->n_edits; j++)
			lines_free(&t->edit[j].new);
		free(t->edit);
		lines_free(&t->appended);
		free(t->name);
	}
	free(diff->target);
	free(diff->exports_file);
	free(diff->fstab_file);
	free(diff);
}

static struct target *get_target(struct suggest_diff *diff, const char *name,
				 bool fstab)
{
	struct target *grown;
	size_t i;

	for (i = 0; i < diff->n_targets; i++) {
		if (strcmp(diff->target[i].name, name) == 0)
			return &diff->target[i];
	}
	if (ARRAY_RESERVE(diff->target, diff->cap_targets,
			  diff->n_targets + 1) != 0)
		return NULL;
	grown = &diff->target[diff->n_targets];
	memset(grown, 0, sizeof(*grown));
	grown->name = strdup(name);
	if (!grown->name)
		return NULL;
	grown->fstab = fstab;
	diff->n_targets++;
	return grown;
}

/*
 * Lines @first-@last of @file become @line.  The same lines replaced again
 * (another path the same export covers) must get the same text.
 */
static int add_replacement(struct suggest_diff *diff, const char *file,
			   size_t first, size_t last, const char *line)
{
	struct target *t = get_target(diff, file, false);
	struct edit *grown;
	size_t i;

	if (!t)
		goto no_memory;
	for (i = 0; i < t->n_edits; i++) {
		struct edit *e = &t->edit[i];

		if (first > e->last || last < e->first)
			continue;
		if (e->first == first && e->last == last &&
		    strcmp(e->new.line[0], line) == 0)
			return 0;
		diag_path(file, "two suggestions change line %zu: apply one, "
				"then run suggest again", first);
		return -1;
	}
	if (ARRAY_RESERVE(t->edit, t->cap_edits, t->n_edits + 1) != 0)
		goto no_memory;
	grown = &t->edit[t->n_edits];
	memset(grown, 0, sizeof(*grown));
	grown->first = first;
	grown->last = last;
	if (!lines_add(&grown->new, line, strlen(line)))
		goto no_memory;
	t->n_edits++;
	return 0;

no_memory:
	diag_no_memory();
	return -1;
}

/* "# replace line N of FILE with" or "# replace lines N-M of FILE with". */
static bool parse_instruction(const char *line, size_t *first, size_t *last,
			      char **file)
{
	const char *p;
	char *end;
	size_t len = strlen(line);

	if (strncmp(line, "# replace line", 14) != 0 || len < 5 ||
	    strcmp(line + len - 5, " with") != 0)
		return false;
	p = line + 14;
	if (*p == 's')
		p++;
	if (*p++ != ' ')
		return false;
	*first = strtoul(p, &end, 10);
	*last = *first;
	if (*end == '-')
		*last = strtoul(end + 1, &end, 10);
	if (strncmp(end, " of ", 4) != 0 || *first == 0 || *last < *first)
		return false;
	p = end + 4;
	*file = strndup(p, (size_t)(line + len - 5 - p));
	if (!*file)
		return false;
	unescape_octal(*file);
	return true;
}

static int add_exports(struct suggest_diff *diff,
		       const struct suggest_config *config,
		       const struct bino_audit_target *target)
{
	struct lines block = { 0 };
	size_t i, first, last;
	char *file;
	int rc = 0;

	if (block_lines(config, target, SUGGEST_EXPORTS, &block) != 0)
		return -1;
	for (i = 0; rc == 0 && i < block.n; i++) {
		if (parse_instruction(block.line[i], &first, &last, &file)) {
			/* A comment there: the line was refused (put_refusal()). */
			if (i + 1 < block.n &&
			    !is_comment_or_blank(block.line[i + 1])) {
				rc = add_replacement(diff, file, first, last,
						     block.line[i + 1]);
				i++;
			}
			free(file);
		} else if (!is_comment_or_blank(block.line[i])) {
			/* Nothing exports it: the clients are the admin's choice. */
			diag_path(bino_audit_target_path(target),
				  "not exported: no exports change is made; "
				  "add a line for its clients (see suggest "
				  "--format exports)");
		}
	}
	lines_free(&block);
	return rc;
}

static int add_fstab(struct suggest_diff *diff,
		     const struct suggest_config *config,
		     const struct bino_audit_target *target)
{
	struct lines block = { 0 };
	struct target *t;
	size_t i;
	int rc = 0;

	if (block_lines(config, target, SUGGEST_SERVER_FSTAB, &block) != 0)
		return -1;
	t = block.n ? get_target(diff, diff->fstab_file, true) : NULL;
	if (block.n && !t)
		rc = -1;
	for (i = 0; rc == 0 && i < block.n; i++) {
		if (is_comment_or_blank(block.line[i]) ||
		    lines_has(&t->appended, block.line[i]))
			continue;
		if (!lines_add(&t->appended, block.line[i], strlen(block.line[i])))
			rc = -1;
	}
	if (rc)
		diag_no_memory();
	lines_free(&block);
	return rc;
}

int suggest_diff_add(struct suggest_diff *diff,
		     const struct suggest_config *config,
		     const struct bino_audit_target *target)
{
	if (add_exports(diff, config, target) != 0)
		return -1;
	return add_fstab(diff, config, target);
}

/* ---- writing the diffs ------------------------------------------------- */

/* The file as it is now: missing is empty. */
static int read_lines(const char *name, struct lines *l, bool *newline_at_end)
{
	char *text = NULL;
	size_t len = 0, size = 0;
	FILE *f = fopen(name, "r");
	int rc = 0;

	*newline_at_end = true;
	if (!f) {
		if (errno == ENOENT)
			return 0;
		diag_path(name, "%s", strerror(errno));
		return -1;
	}
	for (;;) {
		size_t n;

		if (len == size && ARRAY_RESERVE(text, size, len + 65536) != 0) {
			rc = -1;
			break;
		}
		n = fread(text + len, 1, size - len, f);
		if (n == 0)
			break;
		len += n;
	}
	if (ferror(f)) {
		diag_path(name, "%s", strerror(errno));
		rc = -1;
	}
	fclose(f);
	if (rc == 0 && !lines_split(l, text, len, newline_at_end))
		rc = -1;
	free(text);
	return rc;
}

static int compare_edits(const void *a, const void *b)
{
	const struct edit *x = a, *y = b;

	return (x->first > y->first) - (x->first < y->first);
}

/* One old line in a hunk, with patch's mark when it ends the file unended. */
static void put_line(FILE *out, char mark, const char *line, bool unended)
{
	fprintf(out, "%c%s\n", mark, line);
	if (unended)
		fputs("\\ No newline at end of file\n", out);
}

/* Edits [from, to) of a target, written as one hunk. */
struct hunk {
	size_t from;
	size_t to;
};

/*
 * Write the hunk @h of @t over @old; @unended: @old's last line has no
 * newline.
 */
static void put_hunk(FILE *out, const struct target *t, struct hunk h,
		     const struct lines *old, bool unended, long *offset)
{
	size_t from = h.from, to = h.to;
	size_t n = old->n, i, j, line;
	size_t start = t->edit[from].first > DIFF_CONTEXT ?
			       t->edit[from].first - DIFF_CONTEXT : 1;
	size_t end = t->edit[to - 1].last + DIFF_CONTEXT;
	size_t old_count, new_count;

	if (end > n)
		end = n;
	old_count = end >= start ? end - start + 1 : 0;
	new_count = old_count;
	for (i = from; i < to; i++)
		new_count += t->edit[i].new.n - (t->edit[i].last + 1 - t->edit[i].first);
	fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", old_count ? start : start - 1,
		old_count, (size_t)((long)(new_count ? start : start - 1) + *offset),
		new_count);
	line = start;
	for (i = from; i < to; i++) {
		const struct edit *e = &t->edit[i];

		for (; line < e->first && line <= n; line++)
			put_line(out, ' ', old->line[line - 1], unended && line == n);
		for (; line <= e->last; line++)
			put_line(out, '-', old->line[line - 1], unended && line == n);
		for (j = 0; j < e->new.n; j++)
			put_line(out, '+', e->new.line[j], false);
	}
	for (; line <= end; line++)
		put_line(out, ' ', old->line[line - 1], unended && line == n);
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

static int write_target(FILE *out, struct target *t)
{
	struct lines old = { 0 };
	bool newline_at_end;
	size_t i, from;
	long offset = 0;
	int rc = read_lines(t->name, &old, &newline_at_end);

	if (rc != 0)
		goto out;
	for (i = 0; i < t->n_edits; i++) {
		if (t->edit[i].last > old.n) {
			diag_path(t->name, "has %zu lines, not %zu: changed "
					   "since it was read?",
				  old.n, t->edit[i].last);
			rc = -1;
			goto out;
		}
	}
	for (i = 0; i < t->appended.n;) {
		/* Not twice: once applied, a line is not suggested again. */
		if (lines_has(&old, t->appended.line[i])) {
			free(t->appended.line[i]);
			memmove(t->appended.line + i, t->appended.line + i + 1,
				(--t->appended.n - i) * sizeof(char *));
		} else {
			i++;
		}
	}
	if (t->appended.n) {
		/* Lines only added, after the last line (given its newline). */
		struct edit *grown;

		if (ARRAY_RESERVE(t->edit, t->cap_edits, t->n_edits + 1) != 0) {
			rc = -1;
			goto out;
		}
		grown = &t->edit[t->n_edits++];
		grown->first = old.n + 1;
		grown->last = old.n;
		grown->new = t->appended;
		memset(&t->appended, 0, sizeof(t->appended));
		if (!newline_at_end && old.n) {
			/* The last line is replaced by itself with its newline. */
			char *last;

			grown->first = old.n;
			if (!lines_add(&grown->new, old.line[old.n - 1],
				       strlen(old.line[old.n - 1]))) {
				rc = -1;
				goto out;
			}
			last = grown->new.line[grown->new.n - 1];
			memmove(grown->new.line + 1, grown->new.line,
				(grown->new.n - 1) * sizeof(char *));
			grown->new.line[0] = last;
		}
	}
	if (t->n_edits == 0)
		goto out;
	qsort(t->edit, t->n_edits, sizeof(*t->edit), compare_edits);
	put_name(out, "---", t->name);
	put_name(out, "+++", t->name);
	for (from = 0; from < t->n_edits; from = i) {
		/* Edits whose context touches go in one hunk. */
		for (i = from + 1; i < t->n_edits &&
				   t->edit[i].first <= t->edit[i - 1].last + 2 * DIFF_CONTEXT + 1;
		     i++)
			;
		put_hunk(out, t, (struct hunk){ .from = from, .to = i }, &old,
			 !newline_at_end, &offset);
	}
out:
	if (rc)
		diag_path(t->name, "cannot write its diff");
	lines_free(&old);
	return rc;
}

int suggest_diff_write(struct suggest_diff *diff, enum suggest_block block,
		       FILE *out)
{
	size_t i;
	int pass, rc = 0;

	/* Exports files first, then the fstab. */
	for (pass = 0; pass < 2; pass++) {
		bool fstab = pass == 1;

		if (block != SUGGEST_ALL &&
		    (block == SUGGEST_SERVER_FSTAB) != fstab)
			continue;
		for (i = 0; i < diff->n_targets; i++) {
			if (diff->target[i].fstab == fstab &&
			    write_target(out, &diff->target[i]) != 0)
				rc = -1;
		}
	}
	return rc;
}

/* ---- mount units ------------------------------------------------------- */

/*
 * Lines [@from, @to) of @l as the unit file @name in @dir_fd (@dir names
 * it), through safe_file: never through a link someone put there.
 */
/* Where --output-dir writes, and whether to say each file written. */
struct unit_dir {
	int fd;
	const char *name; /* as the user named it, for messages */
	bool verbose;
};

/* @n lines from @line, each ended by a newline, into the file @name of @dir. */
static int write_file(const struct unit_dir *dir, const char *name,
		      char *const *line, size_t n)
{
	struct safe_file file;
	size_t i;

	if (safe_file_begin(&file, dir->fd, dir->name, name) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (safe_file_write(&file, line[i], strlen(line[i])) != 0 ||
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
	struct lines block = { 0 };
	size_t i, start = 0, end;
	const char *name = NULL;
	size_t prefix = strlen(UNIT_DIR_PREFIX);
	int rc = 0;

	if (block_lines(config, target, SUGGEST_MOUNT_UNITS, &block) != 0)
		return -1;
	/* A unit runs from its "# file:" line to the blank lines before the next. */
	for (i = 0; rc == 0 && i <= block.n; i++) {
		if (i < block.n && strncmp(block.line[i], UNIT_DIR_PREFIX, prefix) != 0)
			continue;
		if (name) {
			for (end = i; end > start && block.line[end - 1][0] == '\0'; end--)
				;
			rc = write_file(&out, name, block.line + start, end - start);
		}
		if (i < block.n) {
			name = block.line[i] + prefix;
			start = i + 1;
		}
	}
	lines_free(&block);
	return rc;
}
