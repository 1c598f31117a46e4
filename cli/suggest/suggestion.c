/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The suggestion for one export the audit finds unsafe: paste-ready
 * configuration that gives every btrfs subvolume below it a filesystem of
 * its own on the clients: server fstab lines (or systemd mount units), the
 * exports(5) lines, client fstab lines and an autofs map, a hook for later
 * snapshots, and what users who cannot change the server can do.  The
 * library supplies the facts (bino_suggestion_*); the phrasing is here,
 * as text (suggest, audit --suggest); suggestion_json.c wraps it in JSON
 * and quote.c quotes names for each file format.
 *
 * Root's configuration names only paths no user can change: a subvolume
 * whose path crosses a directory others may write
 * (bino_suggestion_subvol_confpath()) is named in no line, fstab, unit,
 * exports, client or autofs; each block that leaves one out says so in a
 * comment, and btrfs-ino mount mounts it, resolving the path each time.
 * The hook runs btrfs-ino mount too, never a mount by path.
 */
#include "diag.h"
#include "suggestion.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "quote.h"
#include "report.h"
#include "suggestion_ctx.h"
#include "suggestion_edits.h"
#include "server_fstab.h"
#include "path.h"

#define AUTOFS_MAP "/etc/auto.btrfs-ino"
#define SYSTEM_FSTAB "/etc/fstab"
#define HOOK_PATH "/usr/local/sbin/btrfs-ino-mount-snapshot"
/* The client of an export the admin must choose: never the world ("*"). */
#define CLIENT_PLACEHOLDER "CLIENT"


/* ---- shared pieces ----------------------------------------------------- */

/* The path below the export of a subvolume, e.g. "/spool" ("" for the export). */
static const char *rel_path(const struct suggest_ctx *ctx, const char *path)
{
	size_t len = strlen(ctx->path);

	if (strcmp(ctx->path, "/") == 0)
		return path;
	return strncmp(path, ctx->path, len) == 0 ? path + len : path;
}

/* Where a client mounts the server path @path. */
static void put_client_path(const struct suggest_ctx *ctx, const char *path,
			    void (*put)(FILE *, const char *))
{
	const char *dir = ctx->config->client_dir ? ctx->config->client_dir : ctx->path;
	const char *rel = rel_path(ctx, path);
	size_t len = strlen(dir);
	char *joined = malloc(len + strlen(rel) + 2);

	if (!joined) {
		put(ctx->out, path);
		return;
	}
	strcpy(joined, dir);
	while (len > 1 && joined[len - 1] == '/')
		joined[--len] = '\0';
	strcpy(joined + (strcmp(joined, "/") == 0 && *rel ? 0 : len), rel);
	put(ctx->out, joined);
	free(joined);
}

static const char *subvol_path(const struct suggest_ctx *ctx, size_t i)
{
	return bino_audit_subvol_path(bino_suggestion_subvol(ctx->sug, i));
}

/*
 * The line (or unit, or map entry) for @path is not written: its format
 * cannot carry the name, for @reason (quote.h).  Said in the block, as a
 * comment, and on stderr.
 */
static void put_refusal(const struct suggest_ctx *ctx, const char *path,
			const char *reason)
{
	fputs("# not written: ", ctx->out);
	quote_comment(ctx->out, path);
	fprintf(ctx->out, ": %s\n", reason);
	fprintf(stderr, "%s: ", PROGRAM_NAME);
	quote_comment(stderr, path);
	fprintf(stderr, ": not written: %s\n", reason);
}

/* A memory stream one edit's text or reason is written into. */
struct text {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *text_open(struct text *t)
{
	t->buf = NULL;
	t->len = 0;
	t->f = open_memstream(&t->buf, &t->len);
	return t->f;
}

/* Close @t: 0, or -1 (out of memory) with nothing left to free. */
static int text_close(struct text *t)
{
	if (fclose(t->f) == 0)
		return 0;
	free(t->buf);
	t->buf = NULL;
	return -1;
}

/*
 * Add an edit of @kind with the text of @t (closed here and freed) as its
 * new lines.  Returns its index, or -1.
 */
static long add_text_edit(struct edit_list *list, enum edit_kind kind,
			  const char *file, size_t first, size_t last,
			  struct text *t)
{
	long i = -1;

	if (text_close(t) != 0)
		return -1;
	i = edit_add(list, kind, file, first, last);
	if (i >= 0 && edit_add_text(list, i, t->buf, t->len) != 0)
		i = -1;
	free(t->buf);
	return i;
}

/* A note with the text of @t (closed here) as its reason: 0, or -1. */
static int add_text_note(struct edit_list *list, struct text *t)
{
	long i = -1;

	if (text_close(t) != 0)
		return -1;
	i = edit_add(list, EDIT_NOTE, NULL, 0, 0);
	if (i < 0) {
		free(t->buf);
		return -1;
	}
	list->edit[i].reason = t->buf;
	return 0;
}

/* A note with @text: 0, or -1. */
static int add_note(struct edit_list *list, const char *text)
{
	long i = edit_add(list, EDIT_NOTE, NULL, 0, 0);

	return i < 0 ? -1 : edit_set_reason(list, i, "%s", text);
}

/* put_refusal() as an edit: a note in the block, and a line on stderr. */
static int refuse_edit(const struct suggest_ctx *ctx, struct edit_list *list,
		       const char *path, const char *reason)
{
	struct text t;

	fprintf(stderr, "%s: ", PROGRAM_NAME);
	quote_comment(stderr, path);
	fprintf(stderr, ": not written: %s\n", reason);
	if (!text_open(&t))
		return -1;
	fputs("not written: ", t.f);
	quote_comment(t.f, path);
	fprintf(t.f, ": %s", reason);
	(void)ctx;
	return add_text_note(list, &t);
}

/* ctx->shown_path: the path as comments show it, one line whatever it holds. */
static void show_path(struct suggest_ctx *ctx)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (out) {
		quote_comment(out, ctx->path);
		if (fclose(out) != 0) {
			free(text);
			text = NULL;
		}
	}
	snprintf(ctx->shown_path, sizeof(ctx->shown_path), "%s",
		 text ? text : "(the path)");
	free(text);
}

/* Whether subvolume @i's path may be named in configuration. */
static bool config_safe(const struct suggest_ctx *ctx, size_t i)
{
	return bino_confpath_reason(bino_suggestion_subvol_confpath(ctx->sug, i)) ==
	       BINO_CONFPATH_SAFE;
}

/* "left to btrfs-ino mount ...: PATH: why" (no "# "), one line. */
static void put_left(FILE *out, const struct suggest_ctx *ctx, size_t i)
{
	fputs("left to btrfs-ino mount, named in no line: ", out);
	quote_comment(out, subvol_path(ctx, i));
	fputs(": ", out);
	put_confpath_why(out, bino_suggestion_subvol_confpath(ctx->sug, i));
	fputs(", so a user could make the path lead elsewhere", out);
}

/* put_left() as a comment line of a block. */
static void put_left_comment(const struct suggest_ctx *ctx, size_t i)
{
	fputs("# ", ctx->out);
	put_left(ctx->out, ctx, i);
	fputc('\n', ctx->out);
}

/* put_left() as a note of an edit list: 0, or -1. */
static int left_edit(const struct suggest_ctx *ctx, struct edit_list *list,
		     size_t i)
{
	struct text t;

	if (!text_open(&t))
		return -1;
	put_left(t.f, ctx, i);
	return add_text_note(list, &t);
}

/*
 * Whether subvolume @i is a snapshot: libbtrfsutil's parent_uuid is set
 * (btrfs subvolume snapshot, snapper, btrbk; a received incremental too).
 * Snapshots come and go: a fstab line or unit for one stops mount -a, and
 * without nofail boot, once it is deleted, so they get none; btrfs-ino
 * mount (its service) mounts them.  A subvolume whose details could not be
 * read counts as no snapshot: its line has nofail like every other.
 */
static bool is_snapshot(const struct suggest_ctx *ctx, size_t i)
{
	return bino_audit_subvol_parent_uuid(bino_suggestion_subvol(ctx->sug, i));
}

/* Whether subvolume @i gets a server fstab line or mount unit. */
static bool gets_server_mount(const struct suggest_ctx *ctx, size_t i)
{
	return !bino_suggestion_subvol_mounted(ctx->sug, i) &&
	       !is_snapshot(ctx, i) && config_safe(ctx, i);
}

/* The comment line that says the snapshots are btrfs-ino mount's. */
static void put_snapshots_note(const struct suggest_ctx *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < bino_suggestion_subvol_count(ctx->sug); i++)
		n += is_snapshot(ctx, i);
	fprintf(ctx->out, "# Snapshots (%zu below it now) get none: btrfs-ino mount mounts them "
			  "(btrfs-ino-mount.service), so deleting one never stops boot\n", n);
}

static size_t subvols_to_mount(const struct suggest_ctx *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < bino_suggestion_subvol_count(ctx->sug); i++)
		n += !bino_suggestion_subvol_mounted(ctx->sug, i);
	return n;
}

/* The options of the subvolume mount: the parent's, then subvolid=. */
static void put_mount_options(const struct suggest_ctx *ctx, FILE *out,
			      size_t i, void (*put)(FILE *, const char *))
{
	const char *options = bino_suggestion_mount_options(ctx->sug);

	if (strcmp(options, "defaults") != 0) {
		put(out, options);
		fputc(',', out);
	}
	fprintf(out, "subvolid=%" PRIu64,
		bino_audit_subvol_id(bino_suggestion_subvol(ctx->sug, i)));
}

/* Whether @a and @b export one directory: as written, or once resolved. */
static bool same_export_path(const struct bino_export *a,
			     const struct bino_export *b)
{
	char *ra, *rb;
	bool same;

	if (strcmp(bino_export_path(a), bino_export_path(b)) == 0)
		return true;
	ra = realpath(bino_export_path(a), NULL);
	rb = ra ? realpath(bino_export_path(b), NULL) : NULL;
	same = rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/* Whether @a and @b come from one entry (line) of one exports file. */
static bool same_line(const struct bino_export *a, const struct bino_export *b)
{
	return strcmp(bino_export_file(a), bino_export_file(b)) == 0 &&
	       bino_export_line(a) == bino_export_line(b) &&
	       strcmp(bino_export_path(a), bino_export_path(b)) == 0;
}

/*
 * The entries (lines) of the export table that export the directory of the
 * export the audit applied, one client each, in file order: call with *@i
 * 0, then again with the same @i; NULL at the end.  A directory exported on
 * several lines (one per client or security flavour) is changed on each.
 */
static const struct bino_export *next_export_line(const struct suggest_ctx *ctx,
						  size_t *i)
{
	const struct bino_export *source = bino_audit_target_export(ctx->target);
	const struct bino_exports *exports = ctx->config->exports;
	size_t j, n = exports ? bino_exports_count(exports) : 0;

	if (!source)
		return NULL;
	for (; *i < n; (*i)++) {
		const struct bino_export *e = bino_exports_get(exports, *i);
		bool first = true;

		if (!same_export_path(e, source))
			continue;
		for (j = 0; j < *i && first; j++)
			first = !same_line(bino_exports_get(exports, j), e);
		if (first) {
			(*i)++;
			return e;
		}
	}
	return NULL;
}

/* "line 3 of FILE", or "lines 3-5 of FILE" for a continued entry. */
static void put_line_range(FILE *out, const struct bino_export *e)
{
	unsigned int first = bino_export_line(e), last = bino_export_last_line(e);

	if (last > first)
		fprintf(out, "lines %u-%u of ", first, last);
	else
		fprintf(out, "line %u of ", first);
	quote_fstab_field(out, bino_export_file(e));
}

/* The export flag of an option exports blocks add: crossmnt or nohide. */
static int option_flag(const char *option)
{
	return strcmp(option, "crossmnt") == 0 ? BINO_EXPORT_CROSSMNT :
						 BINO_EXPORT_NOHIDE;
}

/* @options without any fsid= (which must stay unique to the parent). */
static void put_options_without_fsid(FILE *out, const char *options,
				     bool *first)
{
	const char *p = options;

	while (*p) {
		size_t n = strcspn(p, ",");

		if (n && !(n >= 5 && strncmp(p, "fsid=", 5) == 0)) {
			if (!*first)
				fputc(',', out);
			fwrite(p, 1, n, out);
			*first = false;
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

/*
 * One exports(5) line for server path @path on @out: every client of the
 * export table's line @line with its options, plus @extra (NULL for none)
 * where the library reads it as not set.  With @fsid (subvolume lines) the
 * parent's fsid= is dropped and fsid=@fsid added.  Without @line (nothing
 * exports the path) the client is the placeholder CLIENT, never the world.
 * Returns NULL, or why @path cannot be written (quote.h): then nothing is.
 */
static const char *put_exports_line(const struct suggest_ctx *ctx, FILE *out,
				    const struct bino_export *line,
				    const char *path, const char *extra,
				    const char *fsid)
{
	size_t i, n = bino_exports_count(ctx->config->exports);
	const char *reason = quote_exports_refusal(path);
	bool first;

	if (reason)
		return reason;
	quote_exports_path(out, path);
	if (!line) {
		fprintf(out, " " CLIENT_PLACEHOLDER "(ro,no_subtree_check%s%s%s%s)",
			extra ? "," : "", extra ? extra : "",
			fsid ? ",fsid=" : "", fsid ? fsid : "");
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const struct bino_export *e = bino_exports_get(ctx->config->exports, i);
		const char *options = bino_export_options(e);

		if (!same_line(e, line))
			continue;
		fprintf(out, " %s(", bino_export_client(e));
		first = true;
		if (fsid) {
			put_options_without_fsid(out, options, &first);
		} else if (*options) {
			fputs(options, out);
			first = false;
		}
		if (extra && !(bino_export_flags(e) & option_flag(extra))) {
			fprintf(out, "%s%s", first ? "" : ",", extra);
			first = false;
		}
		if (fsid)
			fprintf(out, "%sfsid=%s", first ? "" : ",", fsid);
		fputc(')', out);
	}
	return NULL;
}

/* put_exports_line() as a line of a text block, or its refusal. */
static void put_exports_text(const struct suggest_ctx *ctx,
			     const struct bino_export *line, const char *path,
			     const char *extra, const char *fsid)
{
	const char *reason = put_exports_line(ctx, ctx->out, line, path, extra, fsid);

	if (reason)
		put_refusal(ctx, path, reason);
	else
		fputc('\n', ctx->out);
}

/* ---- the edits to the server's files ------------------------------------ */

/*
 * The fstab line @t (closed here) for @path: appended, or where the fstab
 * has a line for @path already (the old advice, or the admin's), that line
 * replaced when it lacks nofail, else kept.
 */
static int add_fstab_line(const struct suggest_ctx *ctx, struct edit_list *list,
			  const char *path, struct text *t)
{
	const struct server_fstab *fstab = ctx->config->fstab;
	const struct fstab_line *old = server_fstab_find(fstab, path);
	long e;

	if (!old || !old->number)
		return add_text_edit(list, EDIT_APPEND, fstab ? fstab->file : SYSTEM_FSTAB,
				     0, 0, t) < 0 ? -1 : 0;
	if (!old->nofail) {
		e = add_text_edit(list, EDIT_REPLACE, fstab->file, old->number,
				  old->number, t);
		return e < 0 ? -1 : 0;
	}
	if (text_close(t) != 0)
		return -1;
	free(t->buf);
	if (!text_open(t))
		return -1;
	fputs("mounted by line ", t->f);
	fprintf(t->f, "%u of ", old->number);
	quote_fstab_field(t->f, fstab->file);
	fputs(" already: ", t->f);
	quote_fstab_field(t->f, path);
	return add_text_note(list, t);
}

/*
 * Edit @e's reason: @removal, and for a path a user could change, which
 * directory and why (put_confpath_why()).  0, or -1.
 */
static int set_removal_reason(struct edit_list *list, long e,
			      const char *removal,
			      const struct bino_confpath *confpath)
{
	struct text t;

	if (!confpath)
		return edit_set_reason(list, e, "%s", removal);
	if (!text_open(&t))
		return -1;
	fprintf(t.f, "%s: ", removal);
	put_confpath_why(t.f, confpath);
	if (text_close(&t) != 0)
		return -1;
	free(list->edit[e].reason);
	list->edit[e].reason = t.buf;
	return 0;
}

static int edits_fstab_line(const struct suggest_ctx *ctx,
			    struct edit_list *list, size_t i)
{
	struct text t;

	if (!text_open(&t))
		return -1;
	if (bino_suggestion_subvol_mounted(ctx->sug, i)) {
		fputs("already mounted on its own path: ", t.f);
		quote_fstab_field(t.f, subvol_path(ctx, i));
		return add_text_note(list, &t);
	}
	if (!config_safe(ctx, i)) {
		if (text_close(&t) == 0)
			free(t.buf);
		return left_edit(ctx, list, i);
	}
	fprintf(t.f, "UUID=%s ", ctx->uuid);
	quote_fstab_field(t.f, subvol_path(ctx, i));
	fputs(" btrfs ", t.f);
	put_mount_options(ctx, t.f, i, quote_fstab_field);
	fputs(",nofail 0 0", t.f);
	return add_fstab_line(ctx, list, subvol_path(ctx, i), &t);
}

/*
 * The lines of the server fstab at or below the path that must go: their
 * subvolume was deleted, or it is a snapshot (the old advice).
 */
static int edits_fstab_removals(const struct suggest_ctx *ctx,
				struct edit_list *list)
{
	const struct server_fstab *fstab = ctx->config->fstab;
	size_t i;
	char why[64];

	for (i = 0; fstab && i < fstab->n_lines; i++) {
		const struct fstab_line *line = &fstab->line[i];
		const char *removal = fstab_line_removal(line, why, sizeof(why));
		long e;

		if (!removal || !line->number ||
		    !bino__path_at_or_below(line->target, ctx->path))
			continue;
		e = edit_add(list, EDIT_REMOVE, fstab->file, line->number, line->number);
		if (e < 0 || set_removal_reason(list, e, removal, line->confpath) != 0)
			return -1;
	}
	return 0;
}

/*
 * The lines of the exports files that export a path at or below the path
 * whose path a user could change (export_confpath()): they must go, each
 * once (a line of several clients is several entries).
 */
static int edits_exports_removals(const struct suggest_ctx *ctx,
				  struct edit_list *list)
{
	const struct bino_exports *exports = ctx->config->exports;
	size_t i, j, n = exports ? bino_exports_count(exports) : 0;

	for (i = 0; i < n; i++) {
		const struct bino_export *e = bino_exports_get(exports, i);
		struct bino_confpath *cp = NULL;
		bool first = true;
		long k;

		if (!bino__path_at_or_below(bino_export_path(e), ctx->path))
			continue;
		for (j = 0; j < i && first; j++)
			first = !same_line(bino_exports_get(exports, j), e);
		if (!first)
			continue;
		if (export_confpath(exports, e, &cp) != 0)
			return -1;
		if (!cp)
			continue;
		k = edit_add(list, EDIT_REMOVE, bino_export_file(e),
			     bino_export_line(e), bino_export_last_line(e));
		if (k < 0 || set_removal_reason(list, k, "a user could change its path",
						cp) != 0) {
			bino_confpath_destroy(cp);
			return -1;
		}
		bino_confpath_destroy(cp);
	}
	return 0;
}

/* Whether the exports line @line is one edits_exports_removals() removes. */
static bool export_line_unsafe(const struct suggest_ctx *ctx,
			       const struct bino_export *line)
{
	struct bino_confpath *cp = NULL;

	if (export_confpath(ctx->config->exports, line, &cp) != 0 || !cp)
		return false;
	bino_confpath_destroy(cp);
	return true;
}

static int edits_server_fstab(const struct suggest_ctx *ctx,
			      struct edit_list *list)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug);

	for (i = 0; i < n; i++) {
		if (!is_snapshot(ctx, i) && edits_fstab_line(ctx, list, i) != 0)
			return -1;
	}
	return edits_fstab_removals(ctx, list);
}

/*
 * Why subvolume @i gets no mount unit (quote.h), or NULL.  Its Where= and
 * the Description= that names it must both be unit values.
 */
static const char *mount_unit_refusal(const struct suggest_ctx *ctx, size_t i)
{
	const char *fs_path =
		bino_audit_subvol_fs_path(bino_suggestion_subvol(ctx->sug, i));
	const char *reason = quote_mount_unit_refusal(subvol_path(ctx, i));

	return reason || !fs_path ? reason : quote_unit_value_refusal(fs_path);
}

static int edits_mount_unit(const struct suggest_ctx *ctx,
			    struct edit_list *list, size_t i)
{
	const char *fs_path =
		bino_audit_subvol_fs_path(bino_suggestion_subvol(ctx->sug, i));
	struct text name, t;
	long e;

	if (!text_open(&name))
		return -1;
	fputs("/etc/systemd/system/", name.f);
	quote_mount_unit_name(name.f, subvol_path(ctx, i));
	if (text_close(&name) != 0)
		return -1;
	if (!text_open(&t)) {
		free(name.buf);
		return -1;
	}
	fputs("[Unit]\nDescription=btrfs subvolume ", t.f);
	quote_unit_value(t.f, fs_path ? fs_path : subvol_path(ctx, i));
	fputs(" on its own path, for NFS clients\n", t.f);
	fprintf(t.f, "\n[Mount]\nWhat=/dev/disk/by-uuid/%s\nWhere=", ctx->uuid);
	quote_unit_value(t.f, subvol_path(ctx, i));
	fputs("\nType=btrfs\nOptions=", t.f);
	put_mount_options(ctx, t.f, i, quote_unit_value);
	fputs("\n\n[Install]\nWantedBy=local-fs.target", t.f);
	e = add_text_edit(list, EDIT_CREATE, name.buf, 0, 0, &t);
	free(name.buf);
	return e < 0 ? -1 : 0;
}

static int edits_mount_units(const struct suggest_ctx *ctx,
			     struct edit_list *list)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug);
	size_t before = list->n;

	/* Refusals first: --output-dir takes a unit to run to the next one. */
	for (i = 0; i < n; i++) {
		if (!bino_suggestion_subvol_mounted(ctx->sug, i) &&
		    !is_snapshot(ctx, i) && !config_safe(ctx, i) &&
		    left_edit(ctx, list, i) != 0)
			return -1;
	}
	for (i = 0; i < n; i++) {
		const char *reason = mount_unit_refusal(ctx, i);

		if (reason && gets_server_mount(ctx, i) &&
		    refuse_edit(ctx, list, subvol_path(ctx, i), reason) != 0)
			return -1;
	}
	for (i = 0; i < n; i++) {
		if (gets_server_mount(ctx, i) && !mount_unit_refusal(ctx, i) &&
		    edits_mount_unit(ctx, list, i) != 0)
			return -1;
	}
	if (list->n == before)
		return add_note(list, "(every subvolume that is not a snapshot is mounted already)");
	return 0;
}

/* Whether every client of @line reads @option as set already. */
static bool line_has(const struct suggest_ctx *ctx,
		     const struct bino_export *line, const char *option)
{
	size_t i, n = bino_exports_count(ctx->config->exports);

	for (i = 0; i < n; i++) {
		const struct bino_export *e = bino_exports_get(ctx->config->exports, i);

		if (same_line(e, line) && !(bino_export_flags(e) & option_flag(option)))
			return false;
	}
	return true;
}

/*
 * exportfs's warnings on the lines of @line, as comments: the rewrite of
 * "/p HOST (rw)" (a blank before "(") into "HOST() *(rw,...)" keeps the
 * warning that the world gets the options beside it.
 */
static void put_line_warnings(const struct suggest_ctx *ctx, FILE *out,
			      const struct bino_export *line)
{
	const struct bino_exports *exports = ctx->config->exports;
	size_t i;

	for (i = 0; i < bino_exports_warning_count(exports); i++) {
		const struct bino_syntax_error *w = bino_exports_warning(exports, i);

		if (strcmp(w->file, bino_export_file(line)) != 0 ||
		    w->line < bino_export_line(line) ||
		    w->line > bino_export_last_line(line))
			continue;
		fputs("# exports warning: ", out);
		quote_comment(out, w->file);
		fprintf(out, ":%u:%u: %s\n", w->line, w->column, w->message);
	}
}

/* The replacement of @line: crossmnt for each client that lacks it. */
static int edits_export_line(const struct suggest_ctx *ctx,
			     struct edit_list *list,
			     const struct bino_export *line)
{
	const char *reason;
	struct text t;

	if (!text_open(&t))
		return -1;
	put_line_warnings(ctx, t.f, line);
	reason = put_exports_line(ctx, t.f, line, bino_export_path(line),
				  "crossmnt", NULL);
	if (reason) {
		if (text_close(&t) == 0)
			free(t.buf);
		return refuse_edit(ctx, list, bino_export_path(line), reason);
	}
	return add_text_edit(list, EDIT_REPLACE, bino_export_file(line),
			     bino_export_line(line), bino_export_last_line(line),
			     &t) < 0 ? -1 : 0;
}

static int edits_exports(const struct suggest_ctx *ctx, struct edit_list *list)
{
	const struct bino_export *line;
	size_t i = 0, n_lines = 0, n_have = 0;
	const char *reason;
	struct text t;

	if (!bino_audit_target_export(ctx->target)) {
		if (!text_open(&t))
			return -1;
		reason = put_exports_line(ctx, t.f, NULL, ctx->path, "crossmnt", NULL);
		if (!reason)
			return add_text_edit(list, EDIT_EXAMPLE, NULL, 0, 0,
					     &t) < 0 ? -1 : 0;
		if (text_close(&t) == 0)
			free(t.buf);
		return refuse_edit(ctx, list, ctx->path, reason);
	}
	while ((line = next_export_line(ctx, &i))) {
		if (export_line_unsafe(ctx, line))
			continue; /* removed below */
		n_lines++;
		/* A replacement that changes nothing is no suggestion. */
		if (line_has(ctx, line, "crossmnt")) {
			n_have++;
			continue;
		}
		if (edits_export_line(ctx, list, line) != 0)
			return -1;
	}
	if (n_lines && n_have == n_lines &&
	    add_note(list, "(every line that exports it has crossmnt already)") != 0)
		return -1;
	return edits_exports_removals(ctx, list);
}

/* The edits of @block (server-fstab, mount-units or exports) into @list. */
static int block_edits(const struct suggest_ctx *ctx, enum suggest_block block,
		       struct edit_list *list)
{
	switch (block) {
	case SUGGEST_SERVER_FSTAB:
		return edits_server_fstab(ctx, list);
	case SUGGEST_MOUNT_UNITS:
		return edits_mount_units(ctx, list);
	case SUGGEST_EXPORTS:
		return edits_exports(ctx, list);
	default:
		return 0;
	}
}

/* The edits of @block as the block's text. */
static void put_edits(const struct suggest_ctx *ctx, enum suggest_block block)
{
	struct edit_list list = { 0 };

	if (block_edits(ctx, block, &list) != 0)
		diag_no_memory();
	edits_write_text(ctx->out, &list);
	edit_list_free(&list);
}

/* ---- the blocks -------------------------------------------------------- */

static void block_server_fstab(const struct suggest_ctx *ctx)
{
	const struct bino_mount *fs = bino_suggestion_mount(ctx->sug);

	fprintf(ctx->out,
		"# Server /etc/fstab: mount every subvolume below %s that is not a\n"
		"# snapshot on its own path.  nfsd gives a client a new filesystem only\n"
		"# where the server has a mount; UUID= and subvolid= keep naming the same\n"
		"# subvolume if paths or device names change; the options are those of\n"
		"# the mount holding the export (%s) without subvol=/subvolid=,\n"
		"# and nofail, so that a subvolume deleted later never stops boot.  Lines\n"
		"# are in mount order (parents first).  Then: mount -a\n",
		ctx->shown_path, bino_mount_target(fs));
	put_snapshots_note(ctx);
	put_edits(ctx, SUGGEST_SERVER_FSTAB);
}

static void block_mount_units(const struct suggest_ctx *ctx)
{
	fputs("# systemd mount units instead of fstab lines: the same mounts, one file\n"
	      "# each under /etc/systemd/system (the name must be the escaped mount\n"
	      "# point); systemd orders nested mounts by path.  Then: systemctl\n"
	      "# daemon-reload; systemctl enable --now UNIT...  WantedBy= (not\n"
	      "# RequiredBy=): a unit that fails never stops boot.\n", ctx->out);
	put_snapshots_note(ctx);
	put_edits(ctx, SUGGEST_MOUNT_UNITS);
}

/*
 * What the exports blocks change: the lines that export the path, or the
 * export that covers it, or (neither) a new line for a client to choose.
 */
static void put_exports_target(const struct suggest_ctx *ctx, const char *what)
{
	const struct bino_export *source = bino_audit_target_export(ctx->target);
	FILE *out = ctx->out;

	if (!source) {
		fprintf(out, "# Server /etc/exports: nothing exports %s and no export covers it.\n"
			     "# Replace " CLIENT_PLACEHOLDER " below with the hosts that may mount it (a name,\n"
			     "# network or @netgroup, exports(5)): nothing is exported to the world\n"
			     "# (*) for you.\n", ctx->shown_path);
		return;
	}
	if (bino_audit_target_covered(ctx->target)) {
		fprintf(out, "# Server /etc/exports: no line exports %s; the export of ", ctx->shown_path);
		quote_exports_path(out, bino_export_path(source));
		fputs("\n# covers it (its clients see the path there), so its lines change.\n", out);
	} else {
		fputs("# Server /etc/exports: the lines that export ", out);
		quote_exports_path(out, bino_export_path(source));
		fputs(" change.\n", out);
	}
	fprintf(out, "# %s\n", what);
}

static void block_exports(const struct suggest_ctx *ctx)
{
	put_exports_target(ctx, "Each gets crossmnt; other options are kept.");
	fputs("# crossmnt lets clients cross into every mount below the export, each a\n"
	      "# filesystem of its own: Linux clients do so with NFSv3 and NFSv4 (each\n"
	      "# mount's fsid comes from its subvolume).\n"
	      "# Then: exportfs -ra\n", ctx->out);
	put_edits(ctx, SUGGEST_EXPORTS);
}

static void block_exports_nohide(const struct suggest_ctx *ctx)
{
	size_t i, j, n = bino_suggestion_subvol_count(ctx->sug);
	const struct bino_export *line;
	FILE *out = ctx->out;

	put_exports_target(ctx, "They stay as they are (repeated here); a line per subvolume follows.");
	fputs("# For clients that must mount each subvolume explicitly (non-Linux\n"
	      "# clients, which may not cross), or to expose only these mounts.  nohide\n"
	      "# lets Linux NFSv3 clients of the parent cross into them (NFSv4 clients\n"
	      "# cross into every export); exports(5): nohide is reliable only for\n"
	      "# single-host clients.  fsid= is the subvolume's UUID, never the parent's:\n"
	      "# stable across reboots and unique, so file handles stay valid.\n"
	      "# Then: exportfs -ra\n", out);
	if (!bino_audit_target_export(ctx->target))
		put_exports_text(ctx, NULL, ctx->path, NULL, NULL);
	for (j = 0; (line = next_export_line(ctx, &j));)
		put_exports_text(ctx, line, bino_export_path(line), NULL, NULL);
	for (i = 0; i < n; i++) {
		const uint8_t *uuid =
			bino_audit_subvol_uuid(bino_suggestion_subvol(ctx->sug, i));
		char fsid[37];

		if (!config_safe(ctx, i)) {
			put_left_comment(ctx, i);
			continue;
		}
		if (uuid)
			format_uuid(fsid, uuid);
		else
			fputs("# subvolume UUID unknown: choose a unique fsid=\n", out);
		if (!bino_audit_target_export(ctx->target))
			put_exports_text(ctx, NULL, subvol_path(ctx, i), "nohide",
					 uuid ? fsid : NULL);
		for (j = 0; (line = next_export_line(ctx, &j));)
			put_exports_text(ctx, line, subvol_path(ctx, i), "nohide",
					 uuid ? fsid : NULL);
	}
}

/* Whether @fsid makes an export the NFSv4 pseudo-root: "root" or 0. */
static bool is_v4_root_fsid(const char *fsid)
{
	return fsid && (strcmp(fsid, "root") == 0 ||
			(*fsid && strspn(fsid, "0") == strlen(fsid)));
}

/*
 * The fsid=0 export NFSv4 clients of the path start from: one for a client
 * (as written) of a line that exports the path, else the first.  Without
 * one, knfsd makes the pseudo-root "/" and NFSv4 paths are the server's.
 */
static void find_v4_root(struct suggest_ctx *ctx)
{
	const struct bino_exports *exports = ctx->config->exports;
	const struct bino_export *line, *first = NULL;
	size_t i, j, n = exports ? bino_exports_count(exports) : 0;
	char *resolved;

	for (i = 0; i < n && !ctx->v4_root_export; i++) {
		const struct bino_export *e = bino_exports_get(exports, i);

		if (!is_v4_root_fsid(bino_export_fsid(e)))
			continue;
		if (!first)
			first = e;
		for (j = 0; (line = next_export_line(ctx, &j));) {
			if (strcmp(bino_export_client(line), bino_export_client(e)) == 0)
				ctx->v4_root_export = e;
		}
	}
	if (!ctx->v4_root_export)
		ctx->v4_root_export = first;
	if (!ctx->v4_root_export)
		return;
	resolved = realpath(bino_export_path(ctx->v4_root_export), NULL);
	snprintf(ctx->v4_root, sizeof(ctx->v4_root), "%s",
		 resolved ? resolved : bino_export_path(ctx->v4_root_export));
	free(resolved);
}

/*
 * The path an NFS @vers (3 or 4) client mounts for server path @path:
 * itself, or (NFSv4 with a pseudo-root) relative to the pseudo-root, "/"
 * for the root itself; NULL when NFSv4 clients cannot reach it.
 */
static const char *mount_path(const struct suggest_ctx *ctx, const char *path,
			      int vers)
{
	size_t len = strlen(ctx->v4_root);

	if (vers != 4 || !ctx->v4_root_export || strcmp(ctx->v4_root, "/") == 0)
		return path;
	if (strncmp(path, ctx->v4_root, len) != 0 ||
	    (path[len] != '/' && path[len] != '\0'))
		return NULL;
	return path[len] ? path + len : "/";
}

/* The NFS versions the client lines are for: none pinned, or 4 then 3. */
static int client_versions(const struct suggest_ctx *ctx, int vers[2])
{
	if (!ctx->v4_root_export || strcmp(ctx->v4_root, "/") == 0) {
		vers[0] = 0;
		return 1;
	}
	if (!mount_path(ctx, ctx->path, 4)) {
		vers[0] = 3;
		return 1;
	}
	vers[0] = 4;
	vers[1] = 3;
	return 2;
}

/* What the client blocks say about NFS versions. */
static void put_versions_comment(const struct suggest_ctx *ctx,
				 const char *alternative)
{
	FILE *out = ctx->out;
	int vers[2];

	if (client_versions(ctx, vers) == 1 && vers[0] == 0) {
		fputs("# Works with NFSv3 and NFSv4 (add vers= to pin one); parents first.\n", out);
		return;
	}
	fputs("# The server has an NFSv4 pseudo-root: fsid=0 on ", out);
	quote_fstab_field(out, ctx->v4_root);
	fputs(" (", out);
	put_line_range(out, ctx->v4_root_export);
	fputs(").\n# NFSv4 clients name paths relative to it, NFSv3 clients by the server's\n", out);
	if (vers[0] == 3)
		fprintf(out, "# path.  %s is outside it, so NFSv4 clients cannot reach it: the\n"
			     "# lines pin vers=3.  Parents first.\n", ctx->shown_path);
	else
		fprintf(out, "# path: the lines pin vers=4; for NFSv3 use %s\n"
			     "# (vers=3, server paths) instead.  Parents first.\n", alternative);
}

/* One client fstab line: the server's @path on its client mount point. */
static void put_client_fstab_line(const struct suggest_ctx *ctx,
				  const char *path, int vers, const char *prefix)
{
	fprintf(ctx->out, "%s%s:", prefix, ctx->server);
	quote_fstab_field(ctx->out, mount_path(ctx, path, vers));
	fputc(' ', ctx->out);
	put_client_path(ctx, path, quote_fstab_field);
	if (vers)
		fprintf(ctx->out, " nfs _netdev,vers=%d 0 0\n", vers);
	else
		fputs(" nfs _netdev 0 0\n", ctx->out);
}

static void block_client_fstab(const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug);
	FILE *out = ctx->out;
	int v, n_vers, vers[2];

	fputs("# Client /etc/fstab: mount the export and every subvolume explicitly.\n"
	      "# Crossing alone happens on first access: until then GNU find sees each\n"
	      "# subvolume directory with its parent's device and inode 256 and reports\n"
	      "# a loop; explicit mounts make unmodified tools work from a cold start.\n", out);
	put_versions_comment(ctx, "the commented lines after them");
	n_vers = client_versions(ctx, vers);
	for (v = 0; v < n_vers; v++) {
		const char *prefix = v ? "#" : "";

		if (v)
			fputs("# NFSv3:\n", out);
		put_client_fstab_line(ctx, ctx->path, vers[v], prefix);
		for (i = 0; i < n; i++) {
			if (config_safe(ctx, i))
				put_client_fstab_line(ctx, subvol_path(ctx, i),
						      vers[v], prefix);
			else if (v == 0)
				put_left_comment(ctx, i);
		}
	}
}

/* Why server path @path has no place in the autofs map (quote.h), or NULL. */
static const char *autofs_refusal(const struct suggest_ctx *ctx, const char *path)
{
	const char *dir = ctx->config->client_dir;
	const char *reason = quote_autofs_refusal(path);

	return reason || !dir ? reason : quote_autofs_refusal(dir);
}

/*
 * Why the entry cannot be written at all, or NULL: its key (the export's
 * client path) or the location of its "/" offset (the export's path).
 */
static const char *autofs_root_refusal(const struct suggest_ctx *ctx)
{
	const char *dir = ctx->config->client_dir;
	const char *reason = quote_autofs_root_refusal(ctx->path);

	return reason ? reason : quote_autofs_key_refusal(dir ? dir : ctx->path);
}

/* "/OFFSET LOCATION" of server path @path ("/" for the export itself). */
static void put_autofs_offset(FILE *out, const struct suggest_ctx *ctx,
			      const char *path, int vers)
{
	const char *rel = rel_path(ctx, path);

	quote_autofs_path(out, *rel ? rel : "/");
	fputc(' ', out);
	quote_autofs_location(out, ctx->server, mount_path(ctx, path, vers));
}

/* The length of put_autofs_offset()'s text, or SIZE_MAX. */
static size_t autofs_offset_len(const struct suggest_ctx *ctx,
				const char *path, int vers)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return SIZE_MAX;
	put_autofs_offset(f, ctx, path, vers);
	if (fclose(f) != 0)
		len = SIZE_MAX;
	free(text);
	return len;
}

/*
 * How many of the subvolumes, in order, the entry can hold: automount drops
 * an entry longer than it reads whole (quote_autofs_entry_refusal()), so
 * the ones after are left out.  Counted with the longer locations (NFSv3's,
 * or unpinned) and " \t" before each offset, as automount reads them.
 */
static size_t autofs_fit(const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug), used, len;
	int vers[2], n_vers = client_versions(ctx, vers), v = vers[n_vers - 1];

	used = strlen("-fstype=nfs,vers=3 \t") + autofs_offset_len(ctx, ctx->path, v);
	for (i = 0; i < n; i++) {
		if (autofs_refusal(ctx, subvol_path(ctx, i)) || !config_safe(ctx, i))
			continue;
		len = autofs_offset_len(ctx, subvol_path(ctx, i), v);
		if (len == SIZE_MAX || quote_autofs_entry_refusal(used + 2 + len))
			return i;
		used += 2 + len;
	}
	return n;
}

/*
 * The autofs multi-mount entry for NFS @vers (0: unpinned), its lines
 * joined by @sep (" \\\n\t", or " " for the one-line commented form), with
 * the first @fit subvolumes.  Subvolumes the map cannot name are left out
 * (block_autofs says why).
 */
static void put_autofs_entry(const struct suggest_ctx *ctx, int vers,
			     const char *prefix, const char *sep, size_t fit)
{
	size_t i;
	FILE *out = ctx->out;

	fputs(prefix, out);
	put_client_path(ctx, ctx->path, quote_autofs_path);
	fputs(" -fstype=nfs", out);
	if (vers)
		fprintf(out, ",vers=%d", vers);
	fputs(sep, out);
	put_autofs_offset(out, ctx, ctx->path, vers);
	for (i = 0; i < fit; i++) {
		if (autofs_refusal(ctx, subvol_path(ctx, i)) || !config_safe(ctx, i))
			continue;
		fputs(sep, out);
		put_autofs_offset(out, ctx, subvol_path(ctx, i), vers);
	}
	fputc('\n', out);
}

static void block_autofs(const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug), fit;
	const char *reason;
	int n_vers, vers[2];

	fputs("# Client autofs map (instead of the client fstab): one direct-map\n"
	      "# multi-mount entry, so the export and every subvolume are mounted\n"
	      "# together, explicitly, on first access.  Put it in " AUTOFS_MAP "\n"
	      "# and the line \"/- " AUTOFS_MAP "\" in /etc/auto.master; tested with\n"
	      "# Debian 12's automount.  vers= goes after -fstype=nfs.\n", ctx->out);
	put_versions_comment(ctx, "the commented entry after it");
	reason = autofs_root_refusal(ctx);
	if (reason) {
		put_refusal(ctx, ctx->path, reason);
		return;
	}
	fit = autofs_fit(ctx);
	for (i = 0; i < n; i++) {
		reason = autofs_refusal(ctx, subvol_path(ctx, i));
		if (!reason && i >= fit)
			reason = quote_autofs_entry_refusal(SIZE_MAX);
		if (!config_safe(ctx, i))
			put_left_comment(ctx, i);
		else if (reason)
			put_refusal(ctx, subvol_path(ctx, i), reason);
	}
	n_vers = client_versions(ctx, vers);
	put_autofs_entry(ctx, vers[0], "", " \\\n\t", fit);
	if (n_vers > 1) {
		fputs("# NFSv3:\n", ctx->out);
		put_autofs_entry(ctx, vers[1], "#", " ", fit);
	}
}

static void block_snapshot_hook(const struct suggest_ctx *ctx)
{
	FILE *out = ctx->out;

	fputs("#!/bin/sh\n"
	      "# " HOOK_PATH " [SNAPSHOT...]: run by the snapshot job right after\n"
	      "# \"btrfs subvolume snapshot\" for new snapshots below ", out);
	fputs(ctx->shown_path, out);
	fputs(".\n"
	      "# It runs btrfs-ino mount on that path, which mounts each subvolume\n"
	      "# below it that has no mount of its own (the new snapshots) on its own\n"
	      "# path at once, so clients see it as a filesystem of its own (with\n"
	      "# crossmnt; with per-subvolume exports, also add its exports line and\n"
	      "# run exportfs -ra).  btrfs-ino mount opens each mount point beneath\n"
	      "# the path through no symbolic link and checks that it is the root of\n"
	      "# the subvolume planned before it mounts on it: nothing is mounted by a\n"
	      "# path, so a snapshot directory swapped for a link mounts nothing.  The\n"
	      "# SNAPSHOT arguments are not used.  No fstab line: one for a snapshot\n"
	      "# stops boot once the snapshot is deleted; after a reboot btrfs-ino\n"
	      "# mount (btrfs-ino-mount.service) mounts the snapshots again.\n"
	      "# Before deleting a snapshot: umount it.\n"
	      "set -eu\n"
	      "exec btrfs-ino mount --quiet", out);
	if (ctx->config->exports_file) {
		fputs(" --exports ", out);
		quote_sh_word(out, ctx->config->exports_file);
	}
	fputs(" -- ", out);
	quote_sh_word(out, ctx->path);
	fputc('\n', out);
}

/* The explanations that go with the full report only. */
static void notes(const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_placeholder_count(ctx->sug);
	FILE *out = ctx->out;

	fputs("\n## Snapshots created later\n"
	      "# Each new snapshot below the export is a plain directory again until it\n"
	      "# is mounted: clients see the loop there.  Either create snapshots\n"
	      "# outside the exported tree (e.g. in a sibling directory that is not\n"
	      "# exported, or exported separately with crossmnt and the same mounts), or\n"
	      "# have the snapshot job call the hook (--format snapshot-hook) or\n"
	      "# btrfs-ino mount (btrfs-ino-mount.service keeps it running), and give\n"
	      "# clients the new mount line too.  Clients that looked at a snapshot\n"
	      "# before it was mounted may need to remount.\n", out);
	fputs("\n## Placeholder directories\n"
	      "# A snapshot holds an empty directory (inode 2) where its source had a\n"
	      "# nested subvolume; it is no subvolume and cannot be mounted, and nfsd\n"
	      "# cannot serve it: clients get ESTALE (\"Stale file handle\") there, with\n"
	      "# every configuration.  In writable snapshots rmdir removes it; in\n"
	      "# read-only ones tell users to expect the error, or prune it (find ...\n"
	      "# -path PLACEHOLDER -prune).  List them all on the server with\n"
	      "#   find ", out);
	fputs(ctx->shown_path, out);
	fputs(" -type d -inum 2 -fstype btrfs\n", out);
	if (n)
		fputs("# Found:\n", out);
	for (i = 0; i < n; i++) {
		fputs("#   ", out);
		quote_fstab_field(out, bino_suggestion_placeholder(ctx->sug, i));
		fputc('\n', out);
	}
	fputs("\n## Users who cannot change the server\n"
	      "# Still right: btrfs-ino walk (it reads the subvolume from each NFS file\n"
	      "# handle), e.g. btrfs-ino walk -0 DIR | xargs -0 ... instead of find.\n"
	      "# Stop at the first subvolume with a loop error: find, du, ls -R,\n"
	      "# chmod -R, chown -R, rm -r.  Silently wrong, merging distinct files\n"
	      "# that share an inode number: du (counts them once), tar and cp -a\n"
	      "# (store or copy them as hard links), rsync -H.\n"
	      "# Safer: tar --hard-dereference, cp -a --no-preserve=links, rsync -a\n"
	      "# without -H (each keeps distinct files apart, and loses real hard\n"
	      "# links); or mount each subvolume path from the server explicitly if\n"
	      "# the server lets clients mount it.\n", out);
}

static void heading(const struct suggest_ctx *ctx, const char *title,
		    enum suggest_block block)
{
	if (ctx->block == SUGGEST_ALL)
		fprintf(ctx->out, "\n## %s (--format %s)\n", title,
			suggest_block_name(block));
}

static bool wanted(const struct suggest_ctx *ctx, enum suggest_block block)
{
	return ctx->block == SUGGEST_ALL || ctx->block == block;
}

static void summary_comment(const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug);
	FILE *out = ctx->out;
	int c;

	fprintf(out, "# %s: unsafe for NFS clients (", ctx->shown_path);
	for (c = 0; c < BINO_COLLISION_NR; c++)
		fprintf(out, "%s%s %" PRIu64, c ? ", " : "", bino_collision_name(c),
			bino_audit_target_collisions(ctx->target, c));
	fprintf(out, ").\n# %zu subvolume(s) below it, %zu not mounted on their own path:\n",
		n, subvols_to_mount(ctx));
	for (i = 0; i < n; i++) {
		const struct bino_audit_subvol *subvol =
			bino_suggestion_subvol(ctx->sug, i);

		fprintf(out, "#   %" PRIu64 " ", bino_audit_subvol_id(subvol));
		quote_fstab_field(out, subvol_path(ctx, i));
		if (bino_audit_subvol_parent_uuid(subvol))
			fputs(" (snapshot)", out);
		if (bino_suggestion_subvol_mounted(ctx->sug, i))
			fputs(" (mounted)", out);
		if (!config_safe(ctx, i))
			fputs(" (left to btrfs-ino mount)", out);
		fputc('\n', out);
	}
	fputs("# No exports(5) option alone helps while subvolumes are plain\n"
	      "# directories: nfsd switches filesystem only at a mount point.  So: mount\n"
	      "# them on the server (1), export with crossmnt (2) or per subvolume (2b),\n"
	      "# and mount them explicitly on Linux clients (3 or 4).\n", out);
}

/* The blocks in report order: their --format names, headings and writers. */
static const struct {
	const char *name;
	const char *title;
	void (*write)(const struct suggest_ctx *ctx);
} blocks[] = {
	[SUGGEST_SERVER_FSTAB] = { "server-fstab", "1. Server fstab",
				   block_server_fstab },
	[SUGGEST_MOUNT_UNITS] = { "mount-units", "1b. Or: systemd mount units",
				  block_mount_units },
	[SUGGEST_EXPORTS] = { "exports", "2. Server exports", block_exports },
	[SUGGEST_EXPORTS_NOHIDE] = { "exports-nohide",
				     "2b. Or: one export per subvolume",
				     block_exports_nohide },
	[SUGGEST_CLIENT_FSTAB] = { "client-fstab", "3. Client fstab",
				   block_client_fstab },
	[SUGGEST_AUTOFS] = { "autofs", "4. Or: client autofs map", block_autofs },
	[SUGGEST_SNAPSHOT_HOOK] = { "snapshot-hook", "5. Hook for later snapshots",
				    block_snapshot_hook },
};

const char *suggest_block_name(enum suggest_block block)
{
	return block < SUGGEST_BLOCK_NR ? blocks[block].name : "all";
}

int suggest_block_from_name(const char *name)
{
	int b;

	for (b = 0; b < SUGGEST_BLOCK_NR; b++) {
		if (strcmp(name, blocks[b].name) == 0)
			return b;
	}
	return -1;
}

static void suggest_export(const struct suggest_ctx *ctx)
{
	int b;

	if (ctx->block == SUGGEST_ALL)
		summary_comment(ctx);
	else if (ctx->block != SUGGEST_SNAPSHOT_HOOK) /* #! comes first */
		fprintf(ctx->out, "# %s\n", ctx->shown_path);
	for (b = 0; b < SUGGEST_BLOCK_NR; b++) {
		if (!wanted(ctx, b))
			continue;
		heading(ctx, blocks[b].title, b);
		blocks[b].write(ctx);
	}
	if (ctx->block == SUGGEST_ALL)
		notes(ctx);
}

/* ---- one export ------------------------------------------------------- */

enum bino_error suggest_begin(struct suggest_ctx *ctx,
			      const struct suggest_config *config,
			      const struct bino_audit_target *target,
			      struct bino_suggestion **sug)
{
	enum bino_error err = bino_audit_target_error(target);
	const uint8_t *uuid;

	memset(ctx, 0, sizeof(*ctx));
	ctx->config = config;
	ctx->target = target;
	ctx->path = bino_audit_target_path(target);
	show_path(ctx);
	if (err) {
		diag_path(ctx->path, "%s: %s",
			bino_strerror(err), audit_target_reason(target));
		return err;
	}
	err = bino_suggestion_create(target, config->mounts, 0, sug);
	if (err) {
		int saved = errno;

		diag_path(ctx->path, "%s: %s",
			bino_strerror(err), strerror(saved));
		errno = saved;
		return err;
	}
	ctx->sug = *sug;
	uuid = bino_suggestion_fs_uuid(*sug);
	if (uuid)
		format_uuid(ctx->uuid, uuid);
	if (config->server) {
		snprintf(ctx->server, sizeof(ctx->server), "%s", config->server);
	} else if (gethostname(ctx->server, sizeof(ctx->server)) != 0 ||
		   !ctx->server[0]) {
		strcpy(ctx->server, "SERVER");
	}
	ctx->server[sizeof(ctx->server) - 1] = '\0';
	find_v4_root(ctx);
	return BINO_OK;
}

bool suggest_applies(const struct suggest_ctx *ctx)
{
	return bino_suggestion_subvol_count(ctx->sug) &&
	       bino_suggestion_fs_uuid(ctx->sug);
}

void suggest_unsafe(const struct suggest_ctx *ctx)
{
	const struct bino_mount *fs = bino_suggestion_mount(ctx->sug);

	if (!suggest_applies(ctx)) {
		fprintf(ctx->out,
			"# %s: unsafe for NFS clients, but not because of btrfs subvolumes\n"
			"# below it (its filesystem is %s on %s): run 'btrfs-ino audit %s'\n"
			"# and see its examples; there is nothing to suggest here.\n",
			ctx->shown_path, bino_mount_fstype(fs), bino_mount_target(fs),
			ctx->shown_path);
		return;
	}
	suggest_export(ctx);
}

/*
 * A safe path: the one-line note, and the stale server fstab lines below
 * it (the full report and the server-fstab block only).
 */
static void suggest_safe(const struct suggest_ctx *ctx)
{
	struct edit_list list = { 0 };
	bool fstab = ctx->block == SUGGEST_ALL || ctx->block == SUGGEST_SERVER_FSTAB;
	bool exports = ctx->block == SUGGEST_ALL || ctx->block == SUGGEST_EXPORTS;

	if ((fstab && edits_fstab_removals(ctx, &list) != 0) ||
	    (exports && edits_exports_removals(ctx, &list) != 0))
		diag_no_memory();
	if (list.n)
		fprintf(ctx->out, "# %s: safe for NFS clients; the server's files are not:\n",
			ctx->shown_path);
	else if (ctx->block == SUGGEST_ALL)
		fprintf(ctx->out, "# %s: safe for NFS clients, nothing to change.\n",
			ctx->shown_path);
	edits_write_text(ctx->out, &list);
	edit_list_free(&list);
}

int suggestion_write(const struct suggest_config *config,
		     const struct bino_audit_target *target,
		     enum suggest_block block, FILE *stream, bool *needed)
{
	struct bino_suggestion *sug = NULL;
	struct suggest_ctx ctx;

	*needed = false;
	if (suggest_begin(&ctx, config, target, &sug) != BINO_OK)
		return -1;
	ctx.block = block;
	ctx.out = stream;
	*needed = bino_suggestion_needed(sug);
	if (*needed)
		suggest_unsafe(&ctx);
	else
		suggest_safe(&ctx);
	bino_suggestion_destroy(sug);
	return 0;
}

int suggestion_edits(const struct suggest_config *config,
		     const struct bino_audit_target *target,
		     enum suggest_block block, struct edit_list *list)
{
	struct bino_suggestion *sug = NULL;
	struct suggest_ctx ctx;
	int rc = 0;

	if (suggest_begin(&ctx, config, target, &sug) != BINO_OK)
		return -1;
	ctx.block = block;
	if (bino_suggestion_needed(sug) && suggest_applies(&ctx))
		rc = block_edits(&ctx, block, list);
	else if (block == SUGGEST_SERVER_FSTAB)
		rc = edits_fstab_removals(&ctx, list);
	else if (block == SUGGEST_EXPORTS)
		rc = edits_exports_removals(&ctx, list);
	if (rc)
		diag_no_memory();
	bino_suggestion_destroy(sug);
	return rc;
}
