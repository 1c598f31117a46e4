/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The suggestion for one export: paste-ready configuration that gives
 * every btrfs subvolume below it a filesystem of its own on the clients: server fstab lines (or systemd mount units), the
 * exports(5) lines, client fstab lines and an autofs map, a hook for later
 * snapshots, and what users who cannot change the server can do.  The
 * library supplies the facts (bino_suggestion_*); the phrasing is here,
 * as text (suggest, audit --suggest); suggestion_json.c wraps it in JSON
 * and quote.c quotes names for each file format.
 *
 * This file holds the report: the blocks in order with their --format
 * names and headings, the summary and notes around them, the snapshot
 * hook, and the entry points (suggestion.h).  The blocks themselves are
 * written by suggestion_server_mounts.c (server fstab, mount units),
 * suggestion_exports.c (exports, exports-nohide) and suggestion_client.c
 * (client fstab, autofs), from the steps in suggestion_ctx.c.
 *
 * Root's configuration names only paths no user can change: a subvolume
 * whose path crosses a directory others may write
 * (bino_suggestion_subvol_confpath()) is named in no line, fstab, unit,
 * exports, client or autofs; each block that leaves one out says so in a
 * comment, and btrfs-ino mount mounts it, resolving the path each time.
 * The hook runs btrfs-ino mount too, never a mount by path.
 *
 * A safe export still has clients: its report is a note and the client
 * blocks, and any one block is printed whenever there are subvolumes to
 * write it for.
 */
#include "diag.h"
#include "suggestion.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "path.h"
#include "quote.h"
#include "report.h"
#include "suggestion_ctx.h"
#include "suggestion_edits.h"

#define HOOK_PATH "/usr/local/sbin/btrfs-ino-mount-snapshot"

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

static size_t subvols_to_mount(const struct suggest_ctx *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < bino_suggestion_subvol_count(ctx->sug); i++)
		n += !bino_suggestion_subvol_mounted(ctx->sug, i);
	return n;
}

static int block_snapshot_hook(const struct suggest_ctx *ctx)
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
	return 0;
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
	      "# btrfs-ino mount (btrfs-ino-mount.service keeps it running).  On\n"
	      "# Linux clients the client keeper follows: btrfs-ino mount --watch\n"
	      "# --client DIR (btrfs-ino-client@.service) mounts each new snapshot\n"
	      "# there, with no client line per snapshot (see the client blocks).\n", out);
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
	      "# and on the clients run the client keeper or mount them (3 or 4).\n", out);
}

/* The blocks in report order: their --format names, headings and writers. */
static const struct {
	const char *name;
	const char *title;
	suggest_block_fn *write;
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

void suggest_block_names(char *buf, size_t size)
{
	size_t used = 0;
	int b, n;

	buf[0] = '\0';
	for (b = 0; b < SUGGEST_BLOCK_NR && used < size; b++) {
		n = snprintf(buf + used, size - used, "%s%s", b ? ", " : "",
			     blocks[b].name);
		if (n < 0)
			break;
		used += (size_t)n;
	}
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

/*
 * Blocks @first to @last of the report, each with its heading, those
 * ctx->block asks for: 0, or -1 (said).
 */
static int write_blocks(const struct suggest_ctx *ctx, int first, int last)
{
	int b;

	for (b = first; b <= last; b++) {
		if (!wanted(ctx, b))
			continue;
		heading(ctx, blocks[b].title, b);
		if (blocks[b].write(ctx) != 0)
			return -1;
	}
	return 0;
}

int suggest_export(const struct suggest_ctx *ctx)
{
	if (ctx->block == SUGGEST_ALL)
		summary_comment(ctx);
	else if (ctx->block != SUGGEST_SNAPSHOT_HOOK) /* #! comes first */
		fprintf(ctx->out, "# %s\n", ctx->shown_path);
	if (write_blocks(ctx, 0, SUGGEST_BLOCK_NR - 1) != 0)
		return -1;
	if (ctx->block == SUGGEST_ALL)
		notes(ctx);
	return 0;
}

/*
 * The edits of @block (server-fstab, mount-units or exports) into @list: 0,
 * or -1 with errno set (out of memory).
 */
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

/*
 * An unsafe path with nothing to suggest: its subvolumes are not the
 * cause (there are none, or its filesystem is not a btrfs known by UUID).
 */
static void not_subvolumes_note(const struct suggest_ctx *ctx)
{
	const struct bino_mount *fs = bino_suggestion_mount(ctx->sug);

	fprintf(ctx->out,
		"# %s: unsafe for NFS clients, but not because of btrfs subvolumes\n"
		"# below it (its filesystem is %s on %s): run 'btrfs-ino audit %s'\n"
		"# and see its examples; there is nothing to suggest here.\n",
		ctx->shown_path, bino_mount_fstype(fs), bino_mount_target(fs),
		ctx->shown_path);
}

/*
 * A safe path (the full report, or the server-fstab or exports block):
 * the one-line note, the stale server fstab and exports lines below it,
 * and in the full report the clients' blocks when there are subvolumes
 * to mount: the server needs nothing more, the clients still do.  0, or
 * -1 (said).
 */
static int suggest_safe(const struct suggest_ctx *ctx)
{
	struct edit_list list = { 0 };
	bool all = ctx->block == SUGGEST_ALL;

	if (((all || ctx->block == SUGGEST_SERVER_FSTAB) &&
	     edits_fstab_removals(ctx, &list) != 0) ||
	    ((all || ctx->block == SUGGEST_EXPORTS) &&
	     edits_exports_removals(ctx, &list) != 0)) {
		diag_no_memory();
		edit_list_free(&list);
		return -1;
	}
	if (list.n)
		fprintf(ctx->out, "# %s: safe for NFS clients; the server's files are not:\n",
			ctx->shown_path);
	else if (all && suggest_applies(ctx))
		fprintf(ctx->out, "# %s: safe for NFS clients; the server needs no change,\n"
				  "# the clients may (3, 4).\n", ctx->shown_path);
	else if (all)
		fprintf(ctx->out, "# %s: safe for NFS clients, nothing to change.\n",
			ctx->shown_path);
	edits_write_text(ctx->out, &list);
	edit_list_free(&list);
	if (all && suggest_applies(ctx))
		return write_blocks(ctx, SUGGEST_CLIENT_FSTAB, SUGGEST_AUTOFS);
	return 0;
}

int suggestion_write(const struct suggest_config *config,
		     const struct bino_audit_target *target,
		     enum suggest_block block, FILE *stream, bool *needed)
{
	struct bino_suggestion *sug = NULL;
	struct suggest_ctx ctx;
	int rc = 0;

	*needed = false;
	if (suggest_begin(&ctx, config, target, &sug) != BINO_OK)
		return -1;
	ctx.block = block;
	ctx.out = stream;
	*needed = bino_suggestion_needed(sug);
	if (suggest_applies(&ctx) && (*needed || block != SUGGEST_ALL)) {
		rc = suggest_export(&ctx);
	} else if (block != SUGGEST_ALL && block != SUGGEST_SERVER_FSTAB &&
		   block != SUGGEST_EXPORTS) {
		/* A client block or the hook with nothing to name: no empty file. */
		diag_path(ctx.path, "--format %s: no btrfs subvolume below it, "
			  "nothing to write", suggest_block_name(block));
		rc = -1;
	} else if (*needed) {
		not_subvolumes_note(&ctx);
	} else {
		rc = suggest_safe(&ctx);
	}
	bino_suggestion_destroy(sug);
	return rc;
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

const struct bino_audit_target *
suggestion_covering(const struct bino_audit *audit,
		    const struct bino_audit_target *target)
{
	const struct bino_mount *m = bino_audit_target_mount(target);
	const char *path = bino_audit_target_path(target);
	size_t j;

	for (j = 0; m && j < bino_audit_count(audit); j++) {
		const struct bino_audit_target *other = bino_audit_get(audit, j);
		const struct bino_mount *om = bino_audit_target_mount(other);
		const char *above = bino_audit_target_path(other);

		if (!bino_audit_target_error(other) && om &&
		    strcmp(above, path) != 0 && bino__path_at_or_below(path, above) &&
		    strcmp(bino_mount_source(om), bino_mount_source(m)) == 0 &&
		    strcmp(bino_mount_fstype(om), bino_mount_fstype(m)) == 0)
			return other;
	}
	return NULL;
}
