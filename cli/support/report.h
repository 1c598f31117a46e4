/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pieces of the audit and suggest reports: paths, UUIDs and mounts. */
#ifndef BTRFS_INO_REPORT_H
#define BTRFS_INO_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "btrfsino.h"
#include "output.h"

/* A 16-byte UUID as 36 characters and a NUL, in lower case. */
void format_uuid(char text[37], const uint8_t *uuid);

/*
 * A path under @key in JSON (if @key; null for a NULL @path) and through
 * @fmt in text (if @fmt; nothing for a NULL @path).
 */
void print_text_path(struct output *out, const char *key, const char *fmt,
		     const char *path);

/* A UUID string under @key in JSON only; null for a NULL @uuid. */
void print_uuid(struct output *out, const char *key, const uint8_t *uuid);

/*
 * A mount as a JSON object {mount_id, mountpoint, fstype, source, root, dev}
 * under @key (NULL inside an array); null for a NULL @mount.  JSON only.
 */
void print_mount(struct output *out, const char *key,
		 const struct bino_mount *mount);

/* A mount in text: "mount ID on TARGET (FSTYPE SOURCE root ROOT)". */
void print_mount_text(struct output *out, const struct bino_mount *mount);

/*
 * JSON only: "exported" (whether an export names or covers the path) and
 * "export", the entry applied: {file, line, last_line, path, covers,
 * client, options}, or null.
 */
void print_export_json(struct output *out, const struct bino_audit_target *target);

/*
 * Every client the table @exports gives the export applied to @target (the
 * entries of its path in its file, in order: "10.0.0.0/24(rw) backup(ro)"
 * is two): a "clients" array of {client, options} in JSON, and in text
 * " CLIENT(OPTIONS)" each.  Nothing when @target is not exported.
 */
void print_export_clients(struct output *out, const struct bino_exports *exports,
			  const struct bino_audit_target *target);

/*
 * The clients of print_export_clients() into @f as "CLIENT, CLIENT" (the
 * applied one alone when @exports is NULL).
 */
void write_export_clients(FILE *f, const struct bino_exports *exports,
			  const struct bino_audit_target *target);

/*
 * Why @target could not be audited, for after its bino_strerror(): the errno's
 * message, or what the server mount table lacks.
 */
const char *audit_target_reason(const struct bino_audit_target *target);

/* Whether @target could not be audited because its path does not exist here. */
bool audit_target_absent(const struct bino_audit_target *target);

/*
 * What reading the exports files found: "exports_errors" (where exportfs
 * stops reading a file) and "exports_warnings" arrays of {file, line,
 * column, message} in JSON, "exports error: FILE:LINE:COLUMN: MESSAGE" lines
 * in text.  Return: the number of errors, each a finding.
 */
size_t print_exports_problems(struct output *out,
			      const struct bino_exports *exports);

/* Whether the audit counted any collision in @target. */
bool audit_target_unsafe(const struct bino_audit_target *target);

#endif
