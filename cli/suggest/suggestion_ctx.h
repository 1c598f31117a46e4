/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Private to suggestion.c and suggestion_json.c: the state one export's
 * suggestion is written from, and the steps both writers share.
 */
#ifndef BTRFS_INO_SUGGESTION_CTX_H
#define BTRFS_INO_SUGGESTION_CTX_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>

#include "btrfsino.h"
#include "suggestion.h"

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

/* The text for an unsafe path on ctx->out: ctx->block, or the full report. */
void suggest_unsafe(const struct suggest_ctx *ctx);

#endif
