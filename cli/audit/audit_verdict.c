/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit's first lines and its last (audit_verdict.h): what an admin reads
 * before the tree, so they say what breaks by the tools' names and what the
 * fix is, not the collision classes of the model.
 */
#include "audit_verdict.h"

#include <errno.h>
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

/*
 * Why a path was not audited: absent (with its export line) or an error.
 * Returns 0, or -1 with errno set (out of memory).
 */
static int verdict_not_audited(FILE *f, const struct bino_audit_target *target)
{
	const struct bino_export *source = bino_audit_target_export(target);
	char *file;

	if (!audit_target_absent(target)) {
		fputs("not audited (the error is above)", f);
		return 0;
	}
	fputs("not audited: absent on this machine", f);
	if (!source)
		return 0;
	file = text_escape(bino_export_file(source), strlen(bino_export_file(source)));
	if (!file)
		return -1;
	fprintf(f, ", exported to %s(%s) in %s:%u", bino_export_client(source),
		bino_export_options(source), file, bino_export_line(source));
	free(file);
	return 0;
}

/*
 * The verdict of @target into @f: the whole line or lines, newline
 * included.  Returns 0, or -1 with errno set (out of memory).
 */
static int verdict_write(FILE *f, const struct bino_audit_target *target, bool color)
{
	const char *path = bino_audit_target_path(target);
	char *escaped = text_escape(path, strlen(path));
	struct verdict v = { .f = f, .first = true };

	if (!escaped)
		return -1;
	fprintf(f, "%s: ", escaped);
	v.column = strlen(escaped) + 2;
	free(escaped);
	if (bino_audit_target_error(target)) {
		if (verdict_not_audited(f, target) != 0)
			return -1;
	} else if (!audit_target_unsafe(target)) {
		fprintf(f, "%ssafe%s", color ? "\033[32m" : "", color ? "\033[0m" : "");
	} else {
		fprintf(f, "%sunsafe%s:", color ? "\033[1;31m" : "",
			color ? "\033[0m" : "");
		v.column += strlen("unsafe: ");
		fputc(' ', f);
		verdict_breaks(&v, target);
	}
	fputc('\n', f);
	return 0;
}

/*
 * Close @f, the memory stream of *@text, and print its text when @written
 * (what wrote it returned) is 0; 0, or -1 with errno set (ENOMEM: the text
 * could not be made whole).
 */
static int print_stream_text(struct output *out, FILE *f, char **text, int written)
{
	if (memstream_close(f, text) != 0 || written != 0) {
		free(*text);
		errno = ENOMEM;
		return -1;
	}
	print_string(out, PRINT_TEXT, NULL, "%s", *text);
	free(*text);
	return 0;
}

int audit_verdict_lines(struct output *out, const struct bino_audit *audit,
			bool color)
{
	size_t i, n = bino_audit_count(audit), len;
	char *text = NULL;
	FILE *f;
	int written;

	for (i = 0; i < n; i++) {
		f = open_memstream(&text, &len);
		if (!f)
			return -1;
		written = verdict_write(f, bino_audit_get(audit, i), color);
		if (print_stream_text(out, f, &text, written) != 0)
			return -1;
	}
	return 0;
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
 * columns: the command can still be pasted whole.  Returns 0, or -1 with
 * errno set (out of memory).
 */
static int next_word(struct next_command *cmd, const char *option,
		     const char *word)
{
	char *quoted = NULL;
	size_t len = 0;
	FILE *w = open_memstream(&quoted, &len);

	if (!w)
		return -1;
	if (option)
		fprintf(w, "%s ", option);
	next_quote(w, word);
	if (memstream_close(w, &quoted) != 0)
		return -1;
	if (cmd->column + 1 + len + 2 > VERDICT_WIDTH && cmd->column > 20) {
		fputs(" \\\n     ", cmd->f);
		cmd->column = 5;
	}
	fprintf(cmd->f, " %s", quoted);
	cmd->column += 1 + len;
	free(quoted);
	return 0;
}

/*
 * "btrfs-ino COMMAND" and the options of the audit that COMMAND takes too:
 * all of them for suggest, --exports alone for mount (which acts on this
 * machine's mount table, never a file's).  0, or -1 with errno set.
 */
static int next_options(struct next_command *cmd, const char *command,
			const struct audit_next *next)
{
	bool mount = strcmp(command, "mount") == 0;
	const struct {
		const char *option, *value;
	} carried[] = {
		{ "--exports", next->exports_file },
		{ "--mountinfo", mount ? NULL : next->mountinfo_file },
		{ "--server", mount ? NULL : next->server },
		{ "--client-dir", mount ? NULL : next->client_dir },
	};
	size_t i;

	cmd->column += (size_t)fprintf(cmd->f, PROGRAM_NAME " %s", command);
	for (i = 0; i < sizeof(carried) / sizeof(carried[0]); i++) {
		if (carried[i].value && next_word(cmd, carried[i].option,
						  carried[i].value) != 0)
			return -1;
	}
	return 0;
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

/*
 * On this client: the client keeper, which mounts what the server mounts
 * before a cold tool meets it as a directory of its parent's device (the
 * audit crossed into those mounts only as it walked them).  0, or -1 with
 * errno set.
 */
static int next_keeper(struct next_command *cmd, const char *dir)
{
	cmd->column += (size_t)fprintf(cmd->f, PROGRAM_NAME " mount --watch");
	return next_word(cmd, "--client", dir);
}

/*
 * Why the keeper, though the verdict may say safe: the audit crossed into
 * the server's mounts as it walked, cold tools do not.  0, or -1 with errno
 * set (out of memory).
 */
static int next_keeper_note(FILE *f, const char *dir)
{
	char *escaped = text_escape(dir, strlen(dir));

	if (!escaped)
		return -1;
	fprintf(f, "(the server has mounts below %s that this client crossed only as\n"
		" the audit walked them: cold tools such as find meet loops there)\n",
		escaped);
	free(escaped);
	return 0;
}

/*
 * After drift: the commands its lines name, in the order to run them, as
 * one line a shell runs (suggest --diff applied as README says: patch -d
 * / -p0).  0, or -1 with errno set.
 */
static int next_drift(struct next_command *cmd, const struct audit_next *next)
{
	const char *sep = "";

	if (next->drift.diff) {
		if (next_options(cmd, "suggest --diff", next) != 0)
			return -1;
		fputs(" | patch -d / -p0", cmd->f);
		sep = " && ";
	}
	if (next->drift.exportfs) {
		fprintf(cmd->f, "%sexportfs -ra", sep);
		sep = " && ";
	}
	if (next->drift.mount_all)
		fprintf(cmd->f, "%smount -a", sep);
	return 0;
}

/* The next command into @f (after "next: "); 0, or -1 with errno set. */
static int next_write(FILE *f, const struct next_counts *counts,
		      const struct audit_next *next)
{
	struct next_command cmd = { f, strlen("next: ") };

	if (next->keeper_dir)
		return next_keeper(&cmd, next->keeper_dir);
	if (counts->client_unsafe) {
		fputs("on this client, mount the paths above (if the server exports "
		      "them) or run tools under 'btrfs-ino exec --'", f);
		return 0;
	}
	if (next->drift.diff || next->drift.exportfs || next->drift.mount_all)
		return next_drift(&cmd, next);
	if (!counts->unsafe) {
		fputs("nothing to change; 'btrfs-ino suggest PATH' shows the client mounts", f);
		return 0;
	}
	/* The files are right: what remains is to mount the subvolumes. */
	if (next_options(&cmd, next->files_right ? "mount" : "suggest", next) != 0)
		return -1;
	if (counts->unsafe == 1)
		return next_word(&cmd, NULL, counts->first);
	fprintf(f, " (%zu unsafe exports)", counts->unsafe);
	return 0;
}

int audit_next_line(struct output *out, const struct bino_audit *audit,
		    const struct audit_next *next, bool blank, bool suggested)
{
	struct next_counts counts = next_count(audit);
	char *text = NULL;
	size_t len;
	FILE *f;
	int written;

	if (!counts.audited ||
	    (counts.unsafe && !counts.client_unsafe && !next->keeper_dir && suggested))
		return 0; /* nothing to go on (the errors say why), or said above */
	f = open_memstream(&text, &len);
	if (!f)
		return -1;
	if (blank)
		fputc('\n', f);
	written = next->keeper_dir ? next_keeper_note(f, next->keeper_dir) : 0;
	fputs("next: ", f);
	if (written == 0)
		written = next_write(f, &counts, next);
	fputc('\n', f);
	return print_stream_text(out, f, &text, written);
}
