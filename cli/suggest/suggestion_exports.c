/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The exports(5) blocks of a suggestion: crossmnt added to every line that
 * exports the path (as edits, suggestion_edits.h), or a line per subvolume
 * with nohide and its own fsid= (the exports-nohide block, text only), and
 * the removal of the lines whose path a user could change.  Every line is
 * written with the clients and options of the line it replaces; a path no
 * line exports gets an example for the placeholder client CLIENT, never
 * the world.  next_export_line() is shared: the client blocks find the
 * NFSv4 pseudo-root of those lines' clients with it.
 *
 * Exports nested below the path on its filesystem (nested_export()) are
 * part of its tree: their lines change with the path's, and each
 * subvolume's nohide line names a client once, with the options of the
 * export nearest above it for that client (shadowed()), as knfsd applies
 * them; exportfs ignores a path and client repeated with other options.
 */
#include "suggestion_ctx.h"

#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "quote.h"
#include "report.h"
#include "server_fstab.h"
#include "suggestion_edits.h"

/* The client of an export the admin must choose: never the world ("*"). */
#define CLIENT_PLACEHOLDER "CLIENT"

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

/* The server mount holding @path: the longest mount point above it. */
static const struct bino_mount *holding_mount(const struct bino_mounts *mounts,
					      const char *path)
{
	const struct bino_mount *best = NULL;
	size_t i, n = mounts ? bino_mounts_count(mounts) : 0;

	for (i = 0; i < n; i++) {
		const struct bino_mount *m = bino_mounts_get(mounts, i);

		if (bino__path_at_or_below(path, bino_mount_target(m)) &&
		    (!best || strlen(bino_mount_target(m)) >=
				      strlen(bino_mount_target(best))))
			best = m;
	}
	return best;
}

/*
 * Whether @e exports a directory strictly below the path, on the
 * filesystem of the suggestion (the mount holding it has the same source
 * and type): a nested export, whose lines the path's blocks change too,
 * so that one block serves the whole tree whatever exports overlap.
 */
static bool nested_export(const struct suggest_ctx *ctx,
			  const struct bino_export *e)
{
	const struct bino_mount *fs = bino_suggestion_mount(ctx->sug);
	const struct bino_mount *m;

	if (strcmp(bino_export_path(e), ctx->path) == 0 ||
	    !bino__path_at_or_below(bino_export_path(e), ctx->path))
		return false;
	m = holding_mount(ctx->config->mounts, bino_export_path(e));
	return m && fs && strcmp(bino_mount_fstype(m), bino_mount_fstype(fs)) == 0 &&
	       strcmp(bino_mount_source(m), bino_mount_source(fs)) == 0;
}

/*
 * From entry *@i on, the first that starts a line (the first client of
 * its entry) and is one @match takes, or NULL at the end; *@i is then past
 * it.  A directory exported on several lines (one per client or security
 * flavour) is changed on each.
 */
static const struct bino_export *
next_line(const struct suggest_ctx *ctx, size_t *i,
	  bool (*match)(const struct suggest_ctx *, const struct bino_export *,
			const struct bino_export *),
	  const struct bino_export *dir)
{
	const struct bino_exports *exports = ctx->config->exports;
	size_t j, n = exports ? bino_exports_count(exports) : 0;

	for (; *i < n; (*i)++) {
		const struct bino_export *e = bino_exports_get(exports, *i);
		bool first = true;

		if (!match(ctx, e, dir))
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

static bool exports_dir(const struct suggest_ctx *ctx,
			const struct bino_export *e,
			const struct bino_export *dir)
{
	(void)ctx;
	return same_export_path(e, dir);
}

static bool in_tree(const struct suggest_ctx *ctx, const struct bino_export *e,
		    const struct bino_export *source)
{
	return same_export_path(e, source) || nested_export(ctx, e);
}

const struct bino_export *next_export_line(const struct suggest_ctx *ctx,
					   size_t *i)
{
	const struct bino_export *source = bino_audit_target_export(ctx->target);

	return source ? next_line(ctx, i, exports_dir, source) : NULL;
}

/* next_export_line(), and the lines of the nested exports in file order. */
static const struct bino_export *next_tree_line(const struct suggest_ctx *ctx,
						size_t *i)
{
	const struct bino_export *source = bino_audit_target_export(ctx->target);

	return source ? next_line(ctx, i, in_tree, source) : NULL;
}

/*
 * Whether the client of entry @e reaches @path through a nearer export:
 * a nested entry for the same client whose path is nearer above @path.
 * That export's line names the client there, so that each path and
 * client is written once, with the options the client gets (exportfs
 * ignores "incompatible duplicated export entries").
 */
static bool shadowed(const struct suggest_ctx *ctx, const struct bino_export *e,
		     const char *path)
{
	size_t i, n = bino_exports_count(ctx->config->exports);
	size_t len = strlen(bino_export_path(e));

	for (i = 0; i < n; i++) {
		const struct bino_export *f = bino_exports_get(ctx->config->exports, i);

		if (strlen(bino_export_path(f)) > len &&
		    strcmp(bino_export_client(f), bino_export_client(e)) == 0 &&
		    bino__path_at_or_below(path, bino_export_path(f)) &&
		    nested_export(ctx, f))
			return true;
	}
	return false;
}

/* Whether some client of @line reaches @path through it (not shadowed()). */
static bool line_reaches(const struct suggest_ctx *ctx,
			 const struct bino_export *line, const char *path)
{
	size_t i, n = bino_exports_count(ctx->config->exports);

	if (!bino__path_at_or_below(path, bino_export_path(line)))
		return false;
	for (i = 0; i < n; i++) {
		const struct bino_export *e = bino_exports_get(ctx->config->exports, i);

		if (same_line(e, line) && !shadowed(ctx, e, path))
			return true;
	}
	return false;
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

		if (!same_line(e, line) || shadowed(ctx, e, path))
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

/* Whether a subvolume lies strictly below @path. */
static bool subvol_below(const struct suggest_ctx *ctx, const char *path)
{
	size_t i;

	for (i = 0; i < bino_suggestion_subvol_count(ctx->sug); i++) {
		if (strcmp(subvol_path(ctx, i), path) != 0 &&
		    bino__path_at_or_below(subvol_path(ctx, i), path))
			return true;
	}
	return false;
}

/* Whether @path is one of the subvolumes' paths. */
static bool is_subvol_path(const struct suggest_ctx *ctx, const char *path)
{
	size_t i;

	for (i = 0; i < bino_suggestion_subvol_count(ctx->sug); i++) {
		if (strcmp(subvol_path(ctx, i), path) == 0)
			return true;
	}
	return false;
}

/*
 * The lines of the exports files that export a path at or below the path
 * whose path a user could change (export_confpath()): they must go, each
 * once (a line of several clients is several entries).
 */
int edits_exports_removals(const struct suggest_ctx *ctx,
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

/*
 * Into *@removed, whether the exports line @line is one
 * edits_exports_removals() removes: 0, or -1 with errno set (out of
 * memory), never read as "keep it".
 */
static int export_line_removed(const struct suggest_ctx *ctx,
			       const struct bino_export *line, bool *removed)
{
	struct bino_confpath *cp = NULL;

	if (export_confpath(ctx->config->exports, line, &cp) != 0)
		return -1;
	*removed = cp != NULL;
	bino_confpath_destroy(cp);
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

/*
 * The replacement of @line: crossmnt for each client that lacks it.  0, or
 * -1 with errno set (out of memory).
 */
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
		return refuse_edit(list, bino_export_path(line), reason);
	}
	return add_text_edit(list, EDIT_REPLACE, bino_export_file(line),
			     bino_export_line(line), bino_export_last_line(line),
			     &t) < 0 ? -1 : 0;
}

int edits_exports(const struct suggest_ctx *ctx, struct edit_list *list)
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
		return refuse_edit(list, ctx->path, reason);
	}
	while ((line = next_tree_line(ctx, &i))) {
		bool removed;

		if (nested_export(ctx, line) && !subvol_below(ctx, bino_export_path(line)))
			continue; /* nothing to cross into from it */
		if (export_line_removed(ctx, line, &removed) != 0)
			return -1;
		if (removed)
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

/*
 * The nested exports the blocks change too, named once each, so that an
 * admin sees why their lines are here and not in a block of their own.
 */
static void put_nested_exports(const struct suggest_ctx *ctx)
{
	const struct bino_export *line, *last = NULL;
	size_t j;

	for (j = 0; (line = next_tree_line(ctx, &j));) {
		if (!nested_export(ctx, line) ||
		    (last && same_export_path(line, last)))
			continue;
		fputs(last ? ", " : "# And those of the exports below it on this filesystem, one block\n"
				    "# for the whole tree: ", ctx->out);
		quote_exports_path(ctx->out, bino_export_path(line));
		last = line;
	}
	if (last)
		fputs(".\n", ctx->out);
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
	put_nested_exports(ctx);
	fprintf(out, "# %s\n", what);
}

int block_exports(const struct suggest_ctx *ctx)
{
	put_exports_target(ctx, "Each gets crossmnt; other options are kept.");
	fputs("# crossmnt lets clients cross into the mounts below the export, each a\n"
	      "# filesystem of its own (its fsid comes from its subvolume).  A Linux\n"
	      "# client crosses into one only when it traverses it (an NFS submount):\n"
	      "# until then cold tools see the subvolume directory with the export's\n"
	      "# device and inode 256 (find's lstat comes first: \"File system loop\"),\n"
	      "# and submounts expire when idle, so the loops come back.  Mount them on\n"
	      "# the clients too (3, 4), or run the client keeper there.\n"
	      "# Then: exportfs -ra\n", ctx->out);
	return put_edits(ctx, edits_exports);
}

/*
 * Subvolume @i's exports-nohide lines: one for each line of the tree
 * whose clients reach it (line_reaches()), with its options, nohide and
 * the subvolume's fsid=; so each path and client is written once.
 */
static void put_nohide_lines(const struct suggest_ctx *ctx, size_t i)
{
	const uint8_t *uuid = bino_audit_subvol_uuid(bino_suggestion_subvol(ctx->sug, i));
	const char *path = subvol_path(ctx, i);
	const struct bino_export *line;
	char fsid[37];
	size_t j;

	if (uuid)
		format_uuid(fsid, uuid);
	else
		fputs("# subvolume UUID unknown: choose a unique fsid=\n", ctx->out);
	if (!bino_audit_target_export(ctx->target))
		put_exports_text(ctx, NULL, path, "nohide", uuid ? fsid : NULL);
	for (j = 0; (line = next_tree_line(ctx, &j));) {
		if (line_reaches(ctx, line, path))
			put_exports_text(ctx, line, path, "nohide", uuid ? fsid : NULL);
	}
}

int block_exports_nohide(const struct suggest_ctx *ctx)
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
	/* A nested export of a subvolume's own path gets its line below. */
	for (j = 0; (line = next_tree_line(ctx, &j));) {
		if (!is_subvol_path(ctx, bino_export_path(line)))
			put_exports_text(ctx, line, bino_export_path(line), NULL, NULL);
	}
	for (i = 0; i < n; i++) {
		if (!config_safe(ctx, i))
			put_left_comment(ctx, i);
		else
			put_nohide_lines(ctx, i);
	}
	return 0;
}
