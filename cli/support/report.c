/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pieces of the audit and suggest reports, written alike by both commands. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void format_uuid(char text[37], const uint8_t *uuid)
{
	snprintf(text, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6],
		 uuid[7], uuid[8], uuid[9], uuid[10], uuid[11], uuid[12],
		 uuid[13], uuid[14], uuid[15]);
}

void print_text_path(struct output *out, const char *key, const char *fmt,
		     const char *path)
{
	enum print_where where = !key ? PRINT_TEXT : !fmt ? PRINT_JSON : PRINT_ANY;

	if (path)
		print_path(out, where, key, fmt, path, strlen(path));
	else if (key)
		print_string(out, PRINT_JSON, key, NULL, NULL);
}

void print_uuid(struct output *out, const char *key, const uint8_t *uuid)
{
	char text[37];

	if (!uuid) {
		print_string(out, PRINT_JSON, key, NULL, NULL);
		return;
	}
	format_uuid(text, uuid);
	print_string(out, PRINT_JSON, key, NULL, text);
}

void print_mount(struct output *out, const char *key,
		 const struct bino_mount *mount)
{
	if (!mount) {
		print_string(out, PRINT_JSON, key, NULL, NULL);
		return;
	}
	output_open_object(out, key);
	print_u64(out, PRINT_JSON, "mount_id", NULL, bino_mount_id(mount));
	print_text_path(out, "mountpoint", NULL, bino_mount_target(mount));
	print_string(out, PRINT_JSON, "fstype", NULL, bino_mount_fstype(mount));
	print_text_path(out, "source", NULL, bino_mount_source(mount));
	print_text_path(out, "root", NULL, bino_mount_root(mount));
	print_dev(out, PRINT_JSON, "dev", NULL, bino_mount_dev(mount));
	output_close(out);
}

void print_mount_text(struct output *out, const struct bino_mount *mount)
{
	print_u64(out, PRINT_TEXT, NULL, "mount %" PRIu64, bino_mount_id(mount));
	print_text_path(out, NULL, " on %s", bino_mount_target(mount));
	print_string(out, PRINT_TEXT, NULL, " (%s", bino_mount_fstype(mount));
	print_text_path(out, NULL, " %s", bino_mount_source(mount));
	print_text_path(out, NULL, " root %s)", bino_mount_root(mount));
}

const char *audit_target_reason(const struct bino_audit_target *target)
{
	if (bino_audit_target_error(target) == BINO_ERROR_NOT_FOUND &&
	    bino_audit_target_errno(target) == 0)
		return "the --mountinfo file lists no mount at or above it";
	return strerror(bino_audit_target_errno(target));
}

bool audit_target_absent(const struct bino_audit_target *target)
{
	return bino_audit_target_error(target) == BINO_ERROR_STAT_FAILED &&
	       bino_audit_target_errno(target) == ENOENT;
}

bool audit_target_unsafe(const struct bino_audit_target *target)
{
	int c;

	for (c = 0; c < BINO_COLLISION_NR; c++) {
		if (bino_audit_target_collisions(target, c))
			return true;
	}
	return false;
}

void print_export_json(struct output *out, const struct bino_audit_target *target)
{
	const struct bino_export *source = bino_audit_target_export(target);

	print_bool(out, PRINT_JSON, "exported", NULL, source != NULL);
	if (!source) {
		print_string(out, PRINT_JSON, "export", NULL, NULL);
		return;
	}
	output_open_object(out, "export");
	print_text_path(out, "file", NULL, bino_export_file(source));
	print_u64(out, PRINT_JSON, "line", NULL, bino_export_line(source));
	print_u64(out, PRINT_JSON, "last_line", NULL, bino_export_last_line(source));
	print_text_path(out, "path", NULL, bino_export_path(source));
	print_bool(out, PRINT_JSON, "covers", NULL, bino_audit_target_covered(target));
	print_string(out, PRINT_JSON, "client", NULL, bino_export_client(source));
	print_string(out, PRINT_JSON, "options", NULL, bino_export_options(source));
	output_close(out);
}

/*
 * Whether entry @other is a client of the export applied to @target: the same
 * path in the same file, with the options the audit tells apart (crossmnt,
 * nohide) as applied; clients that differ there are audited apart.
 */
static bool same_export(const struct bino_export *other,
			const struct bino_audit_target *target)
{
	const struct bino_export *source = bino_audit_target_export(target);
	const int view = BINO_EXPORT_CROSSMNT | BINO_EXPORT_NOHIDE;

	return strcmp(bino_export_path(other), bino_export_path(source)) == 0 &&
	       strcmp(bino_export_file(other), bino_export_file(source)) == 0 &&
	       (bino_export_flags(other) & view) ==
		       (bino_audit_target_flags(target) & view);
}

void print_export_clients(struct output *out, const struct bino_exports *exports,
			  const struct bino_audit_target *target)
{
	const struct bino_export *source = bino_audit_target_export(target);
	size_t i, n = exports ? bino_exports_count(exports) : 0;

	if (!source)
		return;
	output_open_array(out, "clients");
	for (i = 0; i < n; i++) {
		const struct bino_export *other = bino_exports_get(exports, i);

		if (!same_export(other, target))
			continue;
		output_open_object(out, NULL);
		print_string(out, PRINT_ANY, "client", " %s",
			     bino_export_client(other));
		print_string(out, PRINT_ANY, "options", "(%s)",
			     bino_export_options(other));
		output_close(out);
	}
	output_close(out);
}

void write_export_clients(FILE *f, const struct bino_exports *exports,
			  const struct bino_audit_target *target)
{
	const struct bino_export *source = bino_audit_target_export(target);
	size_t i, n = exports ? bino_exports_count(exports) : 0;
	const char *sep = "";

	if (!source)
		return;
	for (i = 0; i < n; i++) {
		const struct bino_export *other = bino_exports_get(exports, i);

		if (!same_export(other, target))
			continue;
		fprintf(f, "%s%s", sep, bino_export_client(other));
		sep = ", ";
	}
	if (!*sep)
		fputs(bino_export_client(source), f);
}

/* One error or warning: an object in JSON, a line (and a hint) in text. */
static void print_exports_problem(struct output *out, const char *kind,
				  const struct bino_syntax_error *problem,
				  const char *hint)
{
	output_open_object(out, NULL);
	print_string(out, PRINT_TEXT, NULL, "exports %s: ", kind);
	print_text_path(out, "file", "%s", problem->file);
	print_u64(out, PRINT_ANY, "line", ":%" PRIu64, problem->line);
	print_u64(out, PRINT_ANY, "column", ":%" PRIu64, problem->column);
	print_string(out, PRINT_ANY, "message", ": %s\n", problem->message);
	if (hint)
		print_string(out, PRINT_TEXT, NULL, "  %s\n", hint);
	output_close(out);
}

size_t print_exports_problems(struct output *out,
			      const struct bino_exports *exports)
{
	size_t n_errors = bino_exports_error_count(exports);
	size_t n_warnings = bino_exports_warning_count(exports);
	size_t i;

	output_open_array(out, "exports_errors");
	for (i = 0; i < n_errors; i++)
		print_exports_problem(out, "error", bino_exports_error(exports, i),
				      "exportfs stops reading the file here: "
				      "only the entries before it are exported "
				      "(and audited)");
	output_close(out);
	output_open_array(out, "exports_warnings");
	for (i = 0; i < n_warnings; i++)
		print_exports_problem(out, "warning",
				      bino_exports_warning(exports, i), NULL);
	output_close(out);
	if (n_errors || n_warnings)
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
	return n_errors;
}
