/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to the files of suggest/ that write a suggestion: the state one
 * export's suggestion is written from, the steps its blocks share
 * (suggestion_ctx.c), and each block's writer and edits, for the report
 * (suggestion.c) and the JSON (suggestion_json.c) to call.
 */
#ifndef BTRFS_INO_SUGGESTION_CTX_H
#define BTRFS_INO_SUGGESTION_CTX_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "btrfsino.h"
#include "suggestion.h"
#include "suggestion_edits.h"

/* What one export's blocks are written from. */
struct suggest_ctx {
	const struct suggest_config *config;
	const struct bino_audit_target *target;
	const struct bino_suggestion *sug;
	enum suggest_block block;
	const char *path;
	/* path as comments show it (quote_comment()): one line. */
	char shown_path[PATH_MAX];
	char uuid[37];
	char server[256];
	FILE *out;
	/* The NFSv4 pseudo-root (an fsid=0 export) clients see, resolved. */
	const struct bino_export *v4_root_export;
	char v4_root[PATH_MAX];
};

/* ---- one export (suggestion.c) ----------------------------------------- */

/*
 * Make the suggestion for @target and fill @ctx from it (the text goes
 * nowhere yet).  Returns the library's error, reported on stderr; *@sug is
 * the caller's to destroy.
 */
enum bino_error suggest_begin(struct suggest_ctx *ctx,
			      const struct suggest_config *config,
			      const struct bino_audit_target *target,
			      struct bino_suggestion **sug);

/* Whether there is configuration to write: subvolumes on a known btrfs. */
bool suggest_applies(const struct suggest_ctx *ctx);

/*
 * The text on ctx->out of ctx->block, or of the full report of an unsafe
 * path, when suggest_applies(): 0, or -1 with the reason on stderr.
 */
int suggest_export(const struct suggest_ctx *ctx);

/* ---- the steps the blocks share (suggestion_ctx.c) --------------------- */

/* The path of subvolume @i below the export. */
const char *subvol_path(const struct suggest_ctx *ctx, size_t i);

/* Whether subvolume @i's path may be named in configuration. */
bool config_safe(const struct suggest_ctx *ctx, size_t i);

/*
 * The line (or unit, or map entry) for @path is not written: its format
 * cannot carry the name, for @reason (quote.h).  Said in the block, as a
 * comment, and on stderr.
 */
void put_refusal(const struct suggest_ctx *ctx, const char *path,
		 const char *reason);

/*
 * "# left to btrfs-ino mount, named in no line: PATH: why": subvolume @i,
 * whose path a user could change, as a comment line of a block.
 */
void put_left_comment(const struct suggest_ctx *ctx, size_t i);

/* A memory stream one edit's text or reason is written into. */
struct text {
	char *buf;
	size_t len;
	FILE *f;
};

/* Open @t: its stream, or NULL with errno set (out of memory). */
FILE *text_open(struct text *t);

/* Close @t: 0, or -1 with errno set (out of memory) and nothing left to free. */
int text_close(struct text *t);

/*
 * Add an edit of @kind with the text of @t (closed here and freed) as its
 * new lines.  Returns its index, or -1 with errno set (out of memory).
 */
long add_text_edit(struct edit_list *list, enum edit_kind kind,
		   const char *file, size_t first, size_t last,
		   struct text *t);

/* A note with the text of @t (closed here) as its reason: 0, or -1 with errno set. */
int add_text_note(struct edit_list *list, struct text *t);

/* A note with @text: 0, or -1 with errno set (out of memory). */
int add_note(struct edit_list *list, const char *text);

/*
 * put_refusal() as an edit: a note in the block, and a line on stderr.
 * Returns 0, or -1 with errno set (out of memory).
 */
int refuse_edit(struct edit_list *list, const char *path, const char *reason);

/* put_left_comment() as a note of an edit list: 0, or -1 with errno set. */
int left_edit(const struct suggest_ctx *ctx, struct edit_list *list,
	      size_t i);

/*
 * Edit @e's reason: @removal, and for a path a user could change, which
 * directory and why (put_confpath_why()).  0, or -1 with errno set.
 */
int set_removal_reason(struct edit_list *list, long e, const char *removal,
		       const struct bino_confpath *confpath);

/* What makes a block's edits into @list: 0, or -1 with errno set (out of memory). */
typedef int suggest_edits_fn(const struct suggest_ctx *ctx,
			     struct edit_list *list);

/*
 * The edits @make makes, as the block's text on ctx->out: 0, or -1 with
 * the reason on stderr (out of memory).
 */
int put_edits(const struct suggest_ctx *ctx, suggest_edits_fn *make);

/*
 * What writes one block's text on ctx->out: 0, or -1 with the reason on
 * stderr (out of memory), so that a block cut short is never printed as
 * if whole.
 */
typedef int suggest_block_fn(const struct suggest_ctx *ctx);

/* ---- the server's mounts (suggestion_server_mounts.c) ------------------ */

/* The server-fstab block's edits: a line per subvolume, then removals. */
suggest_edits_fn edits_server_fstab;
/*
 * The lines of the server fstab at or below the path that must go: their
 * subvolume was deleted, or it is a snapshot (the old advice).
 */
suggest_edits_fn edits_fstab_removals;
/* The mount-units block's edits: a unit per subvolume, refusals first. */
suggest_edits_fn edits_mount_units;

suggest_block_fn block_server_fstab;
suggest_block_fn block_mount_units;

/* ---- the exports (suggestion_exports.c) -------------------------------- */

/*
 * The entries (lines) of the export table that export the directory of the
 * export the audit applied, one client each, in file order: call with *@i
 * 0, then again with the same @i; NULL at the end.
 */
const struct bino_export *next_export_line(const struct suggest_ctx *ctx,
					   size_t *i);

/* The exports block's edits: crossmnt on each line, then removals. */
suggest_edits_fn edits_exports;
/*
 * The lines of the exports files at or below the path whose path a user
 * could change: they must go.
 */
suggest_edits_fn edits_exports_removals;

suggest_block_fn block_exports;
suggest_block_fn block_exports_nohide;

/* ---- the clients (suggestion_client.c) --------------------------------- */

/*
 * The client keeper of the export's clients: into *@dir the directory
 * they mount the path on (--client-dir, else the path), into *@unit its
 * unit, "btrfs-ino-client@INSTANCE.service" with INSTANCE as
 * "systemd-escape --path DIR" prints it; both the caller's to free.  0,
 * or -1 with errno set (out of memory).
 */
int client_keeper(const struct suggest_ctx *ctx, char **dir, char **unit);

/* Fill ctx->v4_root_export and ctx->v4_root: the NFSv4 pseudo-root, if any. */
void find_v4_root(struct suggest_ctx *ctx);

suggest_block_fn block_client_fstab;
suggest_block_fn block_autofs;

#endif
