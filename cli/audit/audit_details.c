/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The details of each audited path, for audit --verbose and audit --json
 * from the same calls (output.h): its export line, subvolumes, server
 * mounts, collisions with example paths, devices and verdict.  cmd_audit.c
 * holds the options and the run; this file only formats.
 */
#include "audit_details.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "audit_client.h"
#include "diag.h"
#include "report.h"
#include "suggestion.h"

static void print_export_source(struct output *out,
				const struct bino_exports *exports,
				const struct bino_audit_target *target)
{
	const struct bino_export *source = bino_audit_target_export(target);
	int flags = bino_audit_target_flags(target);

	print_export_json(out, target);
	if (source) {
		if (bino_audit_target_covered(target))
			print_text_path(out, NULL, "  covered by the export of %s to",
					bino_export_path(source));
		else
			print_string(out, PRINT_TEXT, NULL, "%s", "  exported to");
		print_export_clients(out, exports, target);
		print_text_path(out, NULL, " in %s", bino_export_file(source));
		print_u64(out, PRINT_TEXT, NULL, ":%" PRIu64 "\n",
			  bino_export_line(source));
	} else {
		if (!bino_audit_target_error(target) &&
		    !bino_audit_target_client_view(target))
			print_string(out, PRINT_TEXT, NULL, "%s\n",
				     "  not exported: audited as if exported with default options");
	}
	print_bool(out, PRINT_JSON, "crossmnt", NULL, flags & BINO_EXPORT_CROSSMNT);
	print_bool(out, PRINT_JSON, "nohide", NULL, flags & BINO_EXPORT_NOHIDE);
}

/*
 * A list of @n details: the text heading (only when there are some) and
 * the JSON array under @key, which output_close() ends.
 */
static void open_list(struct output *out, size_t n, const char *heading,
		      const char *key)
{
	if (n)
		print_string(out, PRINT_TEXT, NULL, "%s\n", heading);
	output_open_array(out, key);
}

static void print_subvols(struct output *out,
			  const struct bino_audit_target *target)
{
	size_t i, j, n = bino_audit_target_subvol_count(target);
	bool client = bino_audit_target_client_view(target);

	open_list(out, n, "  subvolumes:", "subvolumes");
	for (i = 0; i < n; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_target_subvol(target, i);
		int info_errno = bino_audit_subvol_info_errno(subvol);
		uint64_t of = bino_audit_subvol_snapshot_of(subvol);

		output_open_object(out, NULL);
		print_u64(out, PRINT_ANY, "id", "    %" PRIu64,
			  bino_audit_subvol_id(subvol));
		print_text_path(out, "path", " %s",
				bino_audit_subvol_path(subvol));
		if (!bino_audit_subvol_path(subvol))
			print_string(out, PRINT_TEXT, NULL, " %s",
				     "(holds the audited path)");
		print_text_path(out, "fs_path", " [%s]",
				bino_audit_subvol_fs_path(subvol));
		if (info_errno) {
			/* A client cannot ask the server's btrfs: JSON only. */
			print_string(out, client ? PRINT_JSON : PRINT_ANY, "info_error",
				     " (details unknown: %s)",
				     strerror(info_errno));
			/* Known from the walk, where it was met. */
			if (bino_audit_subvol_parent_id(subvol))
				print_u64(out, PRINT_ANY, "parent_id",
					  " parent %" PRIu64,
					  bino_audit_subvol_parent_id(subvol));
		} else {
			print_u64(out, PRINT_ANY, "parent_id", " parent %" PRIu64,
				  bino_audit_subvol_parent_id(subvol));
			print_bool(out, PRINT_JSON, "read_only", NULL,
				   bino_audit_subvol_read_only(subvol));
			if (bino_audit_subvol_read_only(subvol))
				print_string(out, PRINT_TEXT, NULL, "%s",
					     " read-only");
			print_uuid(out, "uuid", bino_audit_subvol_uuid(subvol));
			print_uuid(out, "parent_uuid",
				   bino_audit_subvol_parent_uuid(subvol));
		}
		if (of)
			print_u64(out, PRINT_ANY, "snapshot_of",
				  " snapshot of %" PRIu64, of);
		else if (!info_errno && bino_audit_subvol_parent_uuid(subvol))
			print_string(out, PRINT_ANY, "snapshot_of",
				     " snapshot of %s", NULL);
		else
			print_string(out, PRINT_JSON, "snapshot_of", NULL, NULL);
		print_u64(out, PRINT_ANY, "client_fs", " client fs %" PRIu64,
			  bino_audit_subvol_client_fs(subvol));
		audit_client_subvol(out, target, subvol);
		output_open_array(out, "server_mounts");
		for (j = 0; j < bino_audit_subvol_mount_count(subvol); j++) {
			const struct bino_mount *mount =
				bino_audit_subvol_mount(subvol, j);

			print_mount(out, NULL, mount);
			print_string(out, PRINT_TEXT, NULL, "%s",
				     j ? ", " : "; mounted: ");
			print_mount_text(out, mount);
		}
		output_close(out);
		output_close(out);
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
	}
	output_close(out);
}

static void print_submounts(struct output *out,
			    const struct bino_audit_target *target)
{
	size_t i, n = bino_audit_target_submount_count(target);

	open_list(out, n, "  server mounts below:", "submounts");
	for (i = 0; i < n; i++) {
		const struct bino_audit_submount *submount =
			bino_audit_target_submount(target, i);
		const struct bino_mount *mount = bino_audit_submount_mount(submount);
		enum bino_submount_view view = bino_audit_submount_view(submount);

		output_open_object(out, NULL);
		print_mount(out, "mount", mount);
		print_string(out, PRINT_TEXT, NULL, "%s", "    ");
		print_mount_text(out, mount);
		print_string(out, PRINT_ANY, "view", ": %s",
			     bino_submount_view_name(view));
		print_u64(out, PRINT_ANY, "client_fs", ", client fs %" PRIu64 "\n",
			  bino_audit_submount_client_fs(submount));
		output_close(out);
	}
	output_close(out);
}

/* The counts of each kind: "  collisions: loop N, hardlink N, plain N". */
static void print_collision_counts(struct output *out,
				   const struct bino_audit_target *target)
{
	int c;

	output_open_object(out, "collisions");
	print_string(out, PRINT_TEXT, NULL, "%s", "  collisions:");
	for (c = 0; c < BINO_COLLISION_NR; c++) {
		char fmt[32];

		snprintf(fmt, sizeof(fmt), " %s %%" PRIu64 "%s",
			 bino_collision_name(c), c + 1 < BINO_COLLISION_NR ? "," : "\n");
		print_u64(out, PRINT_ANY, bino_collision_name(c), fmt,
			  bino_audit_target_collisions(target, c));
	}
	output_close(out);
}

/* One example of collision kind @c: its two paths and their identities. */
static void print_example(struct output *out, int c,
			  const struct bino_audit_example *example)
{
	struct bino_key a = bino_audit_example_key(example, 0);
	struct bino_key b = bino_audit_example_key(example, 1);
	size_t j;

	output_open_object(out, NULL);
	print_string(out, PRINT_TEXT, NULL, "    %s", bino_collision_name(c));
	print_u64(out, PRINT_ANY, "client_fs", " (client fs %" PRIu64,
		  bino_audit_example_client_fs(example));
	print_u64(out, PRINT_ANY, "ino", ", ino %" PRIu64 "):\n", b.ino);
	for (j = 0; j < 2; j++) {
		const struct bino_key *id = j ? &b : &a;

		output_open_object(out, j ? "b" : "a");
		print_text_path(out, "path", "      %s",
				bino_audit_example_path(example, (int)j));
		print_dev(out, PRINT_JSON, "dev", NULL, id->dev);
		print_u64(out, PRINT_ANY, "subvolid", "  (subvolume %" PRIu64 ")\n",
			  id->subvolid);
		print_u64(out, PRINT_JSON, "ino", NULL, id->ino);
		output_close(out);
	}
	output_close(out);
}

/* The examples of each kind, in the order the audit kept them. */
static void print_examples(struct output *out,
			   const struct bino_audit_target *target)
{
	size_t i, n;
	int c;

	output_open_object(out, "examples");
	for (c = 0; c < BINO_COLLISION_NR; c++) {
		output_open_array(out, bino_collision_name(c));
		n = bino_audit_target_example_count(target, c);
		for (i = 0; i < n; i++)
			print_example(out, c, bino_audit_target_example(target, c, i));
		output_close(out);
	}
	output_close(out);
}

/* The pairs of subvolumes whose files collide, with the counts of each kind. */
static void print_subvolume_pairs(struct output *out,
				  const struct bino_audit_target *target)
{
	size_t i, n = bino_audit_target_pair_count(target);
	int c;

	open_list(out, n, "  colliding subvolume pairs:", "subvolume_pairs");
	for (i = 0; i < n; i++) {
		const struct bino_audit_pair *pair = bino_audit_target_pair(target, i);

		output_open_object(out, NULL);
		print_u64(out, PRINT_ANY, "a", "    %" PRIu64,
			  bino_audit_pair_subvolid(pair, 0));
		print_u64(out, PRINT_ANY, "b", " and %" PRIu64 ":",
			  bino_audit_pair_subvolid(pair, 1));
		for (c = 0; c < BINO_COLLISION_NR; c++) {
			char fmt[32];

			snprintf(fmt, sizeof(fmt), " %s %%" PRIu64,
				 bino_collision_name(c));
			print_u64(out, PRINT_ANY, bino_collision_name(c), fmt,
				  bino_audit_pair_collisions(pair, c));
		}
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		output_close(out);
	}
	output_close(out);
}

static void print_collisions(struct output *out,
			     const struct bino_audit_target *target)
{
	print_collision_counts(out, target);
	print_examples(out, target);
	print_subvolume_pairs(out, target);
}

static void print_verdict(struct output *out,
			  const struct bino_audit_target *target)
{
	const char *const *tool;
	bool safe = true;
	int c;

	for (c = 0; c < BINO_COLLISION_NR; c++)
		safe = safe && bino_audit_target_collisions(target, c) == 0;
	output_open_object(out, "verdict");
	print_bool(out, PRINT_JSON, "safe", NULL, safe);
	print_string(out, PRINT_TEXT, NULL, "  verdict: %s",
		     safe ? "safe" : audit_client_unsafe_word(target));
	output_open_object(out, "breaks");
	for (c = 0; c < BINO_COLLISION_NR; c++) {
		if (bino_audit_target_collisions(target, c) == 0)
			continue;
		output_open_array(out, bino_collision_name(c));
		print_string(out, PRINT_TEXT, NULL, "; %s breaks",
			     bino_collision_name(c));
		for (tool = bino_collision_tools(c); *tool; tool++) {
			print_string(out, PRINT_JSON, NULL, NULL, *tool);
			print_string(out, PRINT_TEXT, NULL,
				     tool == bino_collision_tools(c) ? " %s" : ", %s",
				     *tool);
		}
		output_close(out);
	}
	output_close(out);
	output_close(out);
	print_string(out, PRINT_TEXT, NULL, "%s", "\n");
}

static void print_devices(struct output *out,
			  const struct bino_audit_target *target,
			  uint64_t *anomalies)
{
	size_t i, n = bino_audit_target_device_count(target);

	open_list(out, n, "  devices:", "devices");
	for (i = 0; i < n; i++) {
		const struct bino_audit_device *device =
			bino_audit_target_device(target, i);
		enum bino_device_kind kind = bino_audit_device_kind(device);
		const struct bino_mount *mount = bino_audit_device_mount(device);

		if (kind == BINO_DEVICE_ANOMALY)
			(*anomalies)++;
		output_open_object(out, NULL);
		print_dev(out, PRINT_ANY, "dev", "    %s",
			  bino_audit_device_dev(device));
		print_bool(out, PRINT_JSON, "listed", NULL,
			   kind == BINO_DEVICE_LISTED);
		print_string(out, PRINT_ANY, "kind", " %s",
			     bino_device_kind_name(kind));
		print_u64(out, PRINT_ANY, "entries", " (%" PRIu64 " entries)",
			  bino_audit_device_entries(device));
		print_u64(out, PRINT_ANY, "subvolid", " subvolume %" PRIu64,
			  bino_audit_device_subvolid(device));
		print_text_path(out, "first_path", " first at %s",
				bino_audit_device_path(device));
		print_mount(out, "mount", mount);
		if (mount && kind != BINO_DEVICE_LISTED) {
			print_string(out, PRINT_TEXT, NULL, "%s", ", via ");
			print_mount_text(out, mount);
		}
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		output_close(out);
	}
	output_close(out);
}

/* The line (the key in JSON) of an export whose suggestion @covering's names. */
static void print_suggestion_in(struct output *out,
				const struct bino_audit_target *covering)
{
	print_string(out, PRINT_JSON, "suggestion", NULL, NULL);
	print_text_path(out, "suggestion_in", "\n  suggestion: in that of %s",
			bino_audit_target_path(covering));
	print_string(out, PRINT_TEXT, NULL, "%s",
		     " (the same filesystem, above it): it names this path's mounts\n");
}

enum details_end audit_details_suggestion(struct output *out,
					  const struct suggest_config *config,
					  const struct bino_audit_target *target,
					  const struct bino_audit_target *covering)
{
	bool needed;
	int made;

	if (output_format(out) == OUTPUT_JSON && bino_audit_target_error(target)) {
		print_string(out, PRINT_JSON, "suggestion", NULL, NULL);
		return DETAILS_WHOLE;
	}
	if (covering) {
		if (output_format(out) == OUTPUT_JSON || audit_target_unsafe(target))
			print_suggestion_in(out, covering);
		return DETAILS_WHOLE;
	}
	if (output_format(out) == OUTPUT_JSON)
		made = suggestion_json(out, "suggestion", config, target);
	else if (bino_audit_target_error(target) || !audit_target_unsafe(target))
		return DETAILS_WHOLE;
	else {
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		fflush(stdout);
		made = suggestion_write(config, target, SUGGEST_ALL, stdout, &needed);
	}
	return made == 0 ? DETAILS_WHOLE : DETAILS_NO_SUGGESTION;
}

enum details_end audit_details_export(struct output *out, const struct bino_exports *exports,
			 const struct bino_audit_target *target,
			 const struct suggest_config *suggest,
			 const struct bino_audit_target *covering)
{
	enum bino_error err = bino_audit_target_error(target);
	enum details_end end;
	uint64_t anomalies = 0;

	output_open_object(out, NULL);
	print_text_path(out, "path", "%s\n", bino_audit_target_path(target));
	print_export_source(out, exports, target);
	audit_client_view(out, target);
	print_bool(out, PRINT_JSON, "absent", NULL, audit_target_absent(target));
	if (err) {
		const char *reason = audit_target_reason(target);

		output_open_object(out, "error");
		print_string(out, PRINT_JSON, "step", NULL, error_step(err));
		print_i64(out, PRINT_JSON, "errno", NULL,
			  bino_audit_target_errno(target));
		print_string(out, PRINT_JSON, "message", NULL, reason);
		output_close(out);
		print_string(out, PRINT_TEXT, NULL, "%s\n",
			     audit_target_absent(target) ?
				     "  not audited: absent on this machine" :
				     "  not audited (see the error above)");
		audit_client_cannot_tell(out, target);
		end = suggest ? audit_details_suggestion(out, suggest, target, NULL) :
				DETAILS_WHOLE;
		output_close(out);
		return end;
	}
	print_string(out, PRINT_JSON, "error", NULL, NULL);
	/* The server table's, as suggest says it: the same offline too. */
	print_mount(out, "filesystem", bino_audit_target_mount(target));
	if (bino_audit_target_mount(target)) {
		print_string(out, PRINT_TEXT, NULL, "%s", "  filesystem: ");
		print_mount_text(out, bino_audit_target_mount(target));
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
	}
	print_u64(out, PRINT_ANY, "entries", "  entries: %" PRIu64,
		  bino_audit_target_entries(target));
	print_u64(out, PRINT_ANY, "unreadable", " (%" PRIu64 " unreadable)",
		  bino_audit_target_unreadable(target));
	print_u64(out, PRINT_ANY, "client_filesystems",
		  ", client filesystems: %" PRIu64 "\n",
		  bino_audit_target_client_fs_count(target));
	print_subvols(out, target);
	print_submounts(out, target);
	print_collisions(out, target);
	print_devices(out, target, &anomalies);
	print_u64(out, PRINT_JSON, "device_anomalies", NULL, anomalies);
	print_verdict(out, target);
	if (audit_client_advice(out, target) != 0) {
		diag_no_memory();
		output_close(out);
		return DETAILS_FAILED;
	}
	end = suggest ? audit_details_suggestion(out, suggest, target, covering) :
			DETAILS_WHOLE;
	output_close(out);
	return end;
}

