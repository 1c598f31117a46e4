/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The server's mounts of a suggestion: the server fstab block (a line per
 * subvolume that is not a snapshot, the old advice replaced or kept, the
 * lines of deleted subvolumes and of snapshots removed) and the systemd
 * mount units that may stand in for it, both as edits (suggestion_edits.h)
 * that the text blocks, --diff and --output-dir render alike.  Snapshots
 * get neither: btrfs-ino mount mounts them.
 */
#include "suggestion_ctx.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "quote.h"
#include "server_fstab.h"
#include "suggestion_edits.h"


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

/*
 * The number of the first line of @fstab that mounts strictly below
 * @path, or 0: a new line for @path goes before it, as mount -a mounts in
 * file order and a parent mounted after its child hides it.
 */
static size_t first_line_below(const struct server_fstab *fstab,
			       const char *path)
{
	size_t i, first = 0;

	for (i = 0; fstab && i < fstab->n_lines; i++) {
		const struct fstab_line *line = &fstab->line[i];

		if (line->number && strcmp(line->target, path) != 0 &&
		    bino__path_at_or_below(line->target, path) &&
		    (!first || line->number < first))
			first = line->number;
	}
	return first;
}

/*
 * The fstab line @t (closed here) for @path: appended, or inserted before
 * the first line that mounts below it, or where the fstab has a line for
 * @path already (the old advice, or the admin's), that line replaced when
 * it lacks nofail, else kept.  0, or -1 with errno set (out of memory).
 */
static int add_fstab_line(const struct suggest_ctx *ctx, struct edit_list *list,
			  const char *path, struct text *t)
{
	const struct server_fstab *fstab = ctx->config->fstab;
	const struct fstab_line *old = server_fstab_find(fstab, path);
	size_t below = first_line_below(fstab, path);
	long e;

	if ((!old || !old->number) && below)
		return add_text_edit(list, EDIT_INSERT, fstab->file, below,
				     below - 1, t) < 0 ? -1 : 0;
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

/* Subvolume @i's fstab edit: 0, or -1 with errno set (out of memory). */
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
int edits_fstab_removals(const struct suggest_ctx *ctx,
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

int edits_server_fstab(const struct suggest_ctx *ctx,
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

/* Subvolume @i's mount unit: 0, or -1 with errno set (out of memory). */
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
		errno = ENOMEM;
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
	if (e < 0) {
		errno = ENOMEM; /* add_text_edit()'s, which free() may change */
		return -1;
	}
	return 0;
}

int edits_mount_units(const struct suggest_ctx *ctx,
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
		    refuse_edit(list, subvol_path(ctx, i), reason) != 0)
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

int block_server_fstab(const struct suggest_ctx *ctx)
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
	return put_edits(ctx, edits_server_fstab);
}

int block_mount_units(const struct suggest_ctx *ctx)
{
	fputs("# systemd mount units instead of fstab lines: the same mounts, one file\n"
	      "# each under /etc/systemd/system (the name must be the escaped mount\n"
	      "# point); systemd orders nested mounts by path.  Then: systemctl\n"
	      "# daemon-reload; systemctl enable --now UNIT...  WantedBy= (not\n"
	      "# RequiredBy=): a unit that fails never stops boot.\n", ctx->out);
	put_snapshots_note(ctx);
	return put_edits(ctx, edits_mount_units);
}
