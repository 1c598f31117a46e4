/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit's first lines and its last (audit_verdict.h): what an admin reads
 * before the tree, so they say what breaks by the tools' names and what the
 * fix is, not the collision classes of the model.
 */
#include "audit_verdict.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "escape.h"
#include "quote.h"
#include "report.h"

#define VERDICT_WIDTH 80

/* A verdict being written: its text so far and the column it ends at. */
struct verdict {
	FILE *f;
	size_t column;
	bool first; /* no clause yet */
};

/* Add @clause, "; " before it, on a new indented line if it would pass 80. */
static void verdict_clause(struct verdict *v, const char *clause)
{
	size_t len = strlen(clause);

	if (!v->first && v->column + 2 + len > VERDICT_WIDTH) {
		fputs(";\n  ", v->f);
		v->column = 2;
	} else if (!v->first) {
		fputs("; ", v->f);
		v->column += 2;
	} else if (v->column + len > VERDICT_WIDTH) {
		fputs("\n  ", v->f);
		v->column = 2;
	}
	fputs(clause, v->f);
	v->column += len;
	v->first = false;
}

/* The tools a class of collisions breaks, with its count @n. */
static void verdict_class(char *clause, size_t size, int c, uint64_t n)
{
	const char *s = n == 1 ? "" : "s";

	if (c == BINO_COLLISION_LOOP)
		snprintf(clause, size, "find reports %" PRIu64 " loop%s", n, s);
	else if (c == BINO_COLLISION_HARDLINK)
		snprintf(clause, size, "tar, rsync -H and du merge %" PRIu64 " file%s",
			 n, s);
	else
		snprintf(clause, size, "cp and diff mistake %" PRIu64 " file%s for others",
			 n, s);
}

/* What breaks, class by class, then the fix. */
static void verdict_breaks(struct verdict *v, const struct bino_audit_target *target)
{
	char clause[96];
	int c;

	for (c = 0; c < BINO_COLLISION_NR; c++) {
		uint64_t n = bino_audit_target_collisions(target, c);

		if (!n)
			continue;
		verdict_class(clause, sizeof(clause), c, n);
		verdict_clause(v, clause);
	}
	verdict_clause(v, bino_audit_target_client_view(target) ?
				  "fix: mount its subvolumes apart here (below)" :
				  "fix: mount each subvolume on its own (see next: below)");
}

/* Why a path was not audited: absent (with its export line) or an error. */
static void verdict_not_audited(FILE *f, const struct bino_audit_target *target)
{
	const struct bino_export *source = bino_audit_target_export(target);
	char *file;

	if (!audit_target_absent(target)) {
		fputs("not audited (the error is above)", f);
		return;
	}
	fputs("not audited: absent on this machine", f);
	if (!source)
		return;
	file = text_escape(bino_export_file(source), strlen(bino_export_file(source)));
	fprintf(f, ", exported to %s(%s) in %s:%u", bino_export_client(source),
		bino_export_options(source),
		file ? file : bino_export_file(source), bino_export_line(source));
	free(file);
}

/* The verdict of @target into @f: the whole line or lines, newline included. */
static void verdict_write(FILE *f, const struct bino_audit_target *target, bool color)
{
	const char *path = bino_audit_target_path(target);
	char *escaped = text_escape(path, strlen(path));
	struct verdict v = { .f = f, .first = true };

	fprintf(f, "%s: ", escaped ? escaped : path);
	v.column = strlen(escaped ? escaped : path) + 2;
	free(escaped);
	if (bino_audit_target_error(target))
		verdict_not_audited(f, target);
	else if (!audit_target_unsafe(target))
		fprintf(f, "%ssafe%s", color ? "\033[32m" : "", color ? "\033[0m" : "");
	else {
		fprintf(f, "%sunsafe%s:", color ? "\033[1;31m" : "",
			color ? "\033[0m" : "");
		v.column += strlen("unsafe: ");
		fputc(' ', f);
		verdict_breaks(&v, target);
	}
	fputc('\n', f);
}

void audit_verdict_lines(struct output *out, const struct bino_audit *audit,
			 bool color)
{
	size_t i, n = bino_audit_count(audit), len;
	char *text;
	FILE *f;

	for (i = 0; i < n; i++) {
		f = open_memstream(&text, &len);
		if (!f)
			return;
		verdict_write(f, bino_audit_get(audit, i), color);
		if (fclose(f) == 0)
			print_string(out, PRINT_TEXT, NULL, "%s", text);
		free(text);
	}
}

/* The next command being written, and the column its line ends at. */
struct next_command {
	FILE *f;
	size_t column;
};

/* @word as sh(1) reads it back: bare when it can be, else quoted. */
static void next_quote(FILE *f, const char *word)
{
	if (*word && strspn(word, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789/._+,:=@%-") == strlen(word))
		fputs(word, f);
	else
		quote_sh_word(f, word);
}

/*
 * " [OPTION ]WORD", after " \\" and a new line if it would pass 80
 * columns: the command can still be pasted whole.
 */
static void next_word(struct next_command *cmd, const char *option,
		      const char *word)
{
	char *quoted = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&quoted, &len);

	if (!w)
		return;
	if (option)
		fprintf(w, "%s ", option);
	next_quote(w, word);
	if (fclose(w) != 0) {
		free(quoted);
		return;
	}
	if (cmd->column + 1 + len + 2 > VERDICT_WIDTH && cmd->column > 20) {
		fputs(" \\\n     ", cmd->f);
		cmd->column = 5;
	}
	fprintf(cmd->f, " %s", quoted);
	cmd->column += 1 + len;
	free(quoted);
}

/* " --exports FILE" and the like: what the audit ran with that suggest takes. */
static void next_options(struct next_command *cmd, const struct audit_next *next)
{
	const struct {
		const char *option, *value;
	} carried[] = {
		{ "--exports", next->exports_file },
		{ "--mountinfo", next->mountinfo_file },
		{ "--server", next->server },
		{ "--client-dir", next->client_dir },
	};
	size_t i;

	for (i = 0; i < sizeof(carried) / sizeof(carried[0]); i++) {
		if (!carried[i].value)
			continue;
		next_word(cmd, carried[i].option, carried[i].value);
	}
}

/* How many audited paths are unsafe, seen from a server and from this client. */
struct next_counts {
	size_t audited, unsafe, client_unsafe;
	const char *first; /* the first unsafe server-view path */
};

static struct next_counts next_count(const struct bino_audit *audit)
{
	struct next_counts counts = { 0 };
	size_t i, n = bino_audit_count(audit);

	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(audit, i);

		if (bino_audit_target_error(target))
			continue;
		counts.audited++;
		if (!audit_target_unsafe(target))
			continue;
		if (bino_audit_target_client_view(target))
			counts.client_unsafe++;
		else if (!counts.unsafe++)
			counts.first = bino_audit_target_path(target);
	}
	return counts;
}

void audit_next_line(struct output *out, const struct bino_audit *audit,
		     const struct audit_next *next, bool blank, bool suggested)
{
	struct next_counts counts = next_count(audit);
	char *text;
	size_t len;
	FILE *f;

	if (!counts.audited || (counts.unsafe && !counts.client_unsafe && suggested))
		return; /* nothing to go on (the errors say why), or said above */
	f = open_memstream(&text, &len);
	if (!f)
		return;
	fputs(blank ? "\nnext: " : "next: ", f);
	if (counts.client_unsafe)
		fputs("on this client, mount the paths above (if the server exports "
		      "them) or run tools under 'btrfs-ino exec --'", f);
	else if (!counts.unsafe && next->drift)
		fputs("apply the drift above (exportfs -ra; the fstab lines), "
		      "then audit again", f);
	else if (!counts.unsafe)
		fputs("nothing to change; 'btrfs-ino suggest PATH' shows the client mounts", f);
	else {
		struct next_command cmd = { f, strlen("next: " PROGRAM_NAME " suggest") };

		fputs(PROGRAM_NAME " suggest", f);
		next_options(&cmd, next);
		if (counts.unsafe == 1)
			next_word(&cmd, NULL, counts.first);
		else
			fprintf(f, " (%zu unsafe exports)", counts.unsafe);
	}
	fputc('\n', f);
	if (fclose(f) == 0)
		print_string(out, PRINT_TEXT, NULL, "%s", text);
	free(text);
}
