/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The suggestion for one export as JSON (suggest --json, audit --suggest
 * --json): the facts it is made from and the text of every block.
 */
#include "suggestion.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "report.h"
#include "server_fstab.h"
#include "suggestion_ctx.h"

static void json_subvols(struct output *out, const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_subvol_count(ctx->sug);

	output_open_array(out, "subvolumes");
	for (i = 0; i < n; i++) {
		const struct bino_audit_subvol *subvol =
			bino_suggestion_subvol(ctx->sug, i);
		uint64_t of = bino_audit_subvol_snapshot_of(subvol);

		output_open_object(out, NULL);
		print_u64(out, PRINT_JSON, "id", NULL, bino_audit_subvol_id(subvol));
		print_text_path(out, "path", NULL, bino_audit_subvol_path(subvol));
		print_text_path(out, "fs_path", NULL,
				bino_audit_subvol_fs_path(subvol));
		print_bool(out, PRINT_JSON, "mounted", NULL,
			   bino_suggestion_subvol_mounted(ctx->sug, i));
		if (of)
			print_u64(out, PRINT_JSON, "snapshot_of", NULL, of);
		else
			print_string(out, PRINT_JSON, "snapshot_of", NULL, NULL);
		print_confpath(out, "left_to_mount",
			       bino_suggestion_subvol_confpath(ctx->sug, i));
		output_close(out);
	}
	output_close(out);
}

static void json_placeholders(struct output *out, const struct suggest_ctx *ctx)
{
	size_t i, n = bino_suggestion_placeholder_count(ctx->sug);

	output_open_array(out, "placeholders");
	for (i = 0; i < n; i++)
		print_text_path(out, "placeholders", NULL,
				bino_suggestion_placeholder(ctx->sug, i));
	output_close(out);
}

/*
 * Every block under its --format name with '-' made '_', each exactly as
 * "suggest --format NAME PATH" prints it for this path, safe or not: null
 * when there are no subvolumes to write them for.  Returns 0, or -1 with
 * the reason on stderr.
 */
static int json_blocks(struct output *out, struct suggest_ctx *ctx)
{
	char key[32], *text, *p;
	size_t len;
	int b, rc = 0;

	if (!suggest_applies(ctx)) {
		print_string(out, PRINT_JSON, "blocks", NULL, NULL);
		return 0;
	}
	output_open_object(out, "blocks");
	for (b = 0; b < SUGGEST_BLOCK_NR && rc == 0; b++) {
		ctx->block = b;
		ctx->out = open_memstream(&text, &len);
		if (!ctx->out) {
			diag_no_memory();
			rc = -1;
			break;
		}
		rc = suggest_export(ctx);
		if (fclose(ctx->out) != 0 && rc == 0) {
			diag_no_memory(); /* a memory stream's only failure */
			rc = -1;
		}
		snprintf(key, sizeof(key), "%s", suggest_block_name(b));
		for (p = key; *p; p++) {
			if (*p == '-')
				*p = '_';
		}
		if (rc == 0)
			print_path(out, PRINT_JSON, key, NULL, text, len);
		free(text);
	}
	ctx->out = NULL;
	output_close(out);
	return rc;
}

/*
 * "client_keeper": what Linux clients of a server that rotates snapshots
 * run, {dir, command, unit}, or null without subvolumes.  0, or -1 with
 * the reason on stderr.
 */
static int json_client_keeper(struct output *out, const struct suggest_ctx *ctx)
{
	char *dir, *unit;

	if (!suggest_applies(ctx)) {
		print_string(out, PRINT_JSON, "client_keeper", NULL, NULL);
		return 0;
	}
	if (client_keeper(ctx, &dir, &unit) != 0) {
		diag_no_memory();
		return -1;
	}
	output_open_object(out, "client_keeper");
	print_text_path(out, "dir", NULL, dir);
	print_string(out, PRINT_JSON, "command", NULL,
		     "btrfs-ino mount --watch --client DIR");
	print_string(out, PRINT_JSON, "unit", NULL, unit);
	output_close(out);
	free(dir);
	free(unit);
	return 0;
}

static void json_error(struct output *out, enum bino_error err, int error_errno,
		       const char *message)
{
	output_open_object(out, "error");
	print_string(out, PRINT_JSON, "step", NULL, error_step(err));
	print_i64(out, PRINT_JSON, "errno", NULL, error_errno);
	print_string(out, PRINT_JSON, "message", NULL,
		     message ? message : strerror(error_errno));
	output_close(out);
}

int suggestion_json(struct output *out, const char *key,
		    const struct suggest_config *config,
		    const struct bino_audit_target *target)
{
	struct bino_suggestion *sug = NULL;
	struct suggest_ctx ctx;
	enum bino_error err;
	int ret = 0;

	output_open_object(out, key);
	print_text_path(out, "path", NULL, bino_audit_target_path(target));
	err = suggest_begin(&ctx, config, target, &sug);
	if (err) {
		int errnum = errno;

		if (bino_audit_target_error(target))
			json_error(out, err, bino_audit_target_errno(target),
				   audit_target_reason(target));
		else
			json_error(out, err, errnum, NULL);
		output_close(out);
		return -1;
	}
	print_string(out, PRINT_JSON, "error", NULL, NULL);
	print_export_json(out, target);
	print_bool(out, PRINT_JSON, "needed", NULL, bino_suggestion_needed(sug));
	print_mount(out, "filesystem", bino_suggestion_mount(sug));
	print_string(out, PRINT_JSON, "fs_uuid", NULL,
		     bino_suggestion_fs_uuid(sug) ? ctx.uuid : NULL);
	print_string(out, PRINT_JSON, "mount_options", NULL,
		     bino_suggestion_mount_options(sug));
	json_subvols(out, &ctx);
	json_placeholders(out, &ctx);
	if (json_client_keeper(out, &ctx) != 0 || json_blocks(out, &ctx) != 0)
		ret = -1;
	output_close(out);
	bino_suggestion_destroy(sug);
	return ret;
}
