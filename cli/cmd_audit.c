/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino audit: what NFS clients of the exports see, and which tools will
 * mistake distinct files for one.  The library computes everything; this
 * file formats the results, as one text report (opening with the tree of
 * audit_tree.c) or one JSON document, with --suggest followed by what
 * suggest prints (suggestion.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "audit_client.h"
#include "audit_tree.h"
#include "btrfsino.h"
#include "btrfs-ino.h"
#include "output.h"
#include "report.h"
#include "suggest_options.h"
#include "suggestion.h"
#include "tables.h"

#define AUDIT_SCHEMA_VERSION 1

struct audit_options {
	const char *exports_file;
	const char *mountinfo_file;
	bool quiet;
	bool suggest;
	struct suggest_config client; /* only server and client_dir */
	struct audit_tree_options tree;
	int flags;
	enum output_format format;
};

void usage_audit(FILE *stream)
{
	fprintf(stream,
		"Usage: %s audit [OPTION]... [PATH]...\n"
		"Report what NFS clients see of each PATH (default: every path in the\n"
		"system's NFS exports and every mounted btrfs filesystem): its subvolumes,\n"
		"its client filesystems, the entries whose client (st_dev, st_ino) is shared\n"
		"by distinct files (loop, hardlink, plain), the tools that will break, and the\n"
		"raw device numbers met.  A PATH that is not exported is audited as if\n"
		"exported with default options.  The text report opens with a tree of each\n"
		"PATH, its subvolumes and their server mounts, each with its collisions.\n\n"
		"Options:\n"
		"      --exports FILE    use this exports(5) file instead of /etc/exports\n"
		"                        and /etc/exports.d/*.exports\n"
		"      --mountinfo FILE  the server's mount table (mountinfo format)\n"
		"                        instead of this process's own\n"
		"      --nfsv4           model NFSv4 clients: they also cross into\n"
		"                        exported mounts without nohide\n"
		"      --json            one JSON document (see README, \"JSON schema: audit\")\n"
		"      --suggest         after each unsafe export, what 'suggest' prints for\n"
		"                        it; with --json, a \"suggestion\" object per export\n"
		"      --server NAME     with --suggest: the server's name in client lines\n"
		"                        (default: this host's name)\n"
		"      --client-dir DIR  with --suggest: where clients mount PATH (default:\n"
		"                        PATH itself)\n"
		"      --ascii           draw the tree with ASCII characters, not box drawing\n"
		"      --full-tree       list every snapshot in the tree (by default a run of\n"
		"                        more than 8 shows the first and last 3 and a count)\n"
		"  -q, --quiet           no progress on stderr\n"
		"  -h, --help            show this help and exit\n\n"
		"Exit status: 0 nothing found, 1 collisions, unreadable entries,\n"
		"unexplained devices or an exports file exportfs stops reading, 2 usage\n"
		"error or nothing could be audited.\n",
		PROGRAM_NAME);
}

enum {
	OPT_EXPORTS = 256,
	OPT_MOUNTINFO,
	OPT_NFSV4,
	OPT_JSON,
	OPT_SUGGEST,
	OPT_ASCII,
	OPT_FULL_TREE,
};

static int parse_audit_options(int argc, char **argv, struct audit_options *opts)
{
	static const struct option options[] = {
		{ "exports", required_argument, NULL, OPT_EXPORTS },
		{ "mountinfo", required_argument, NULL, OPT_MOUNTINFO },
		{ "nfsv4", no_argument, NULL, OPT_NFSV4 },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "suggest", no_argument, NULL, OPT_SUGGEST },
		{ "ascii", no_argument, NULL, OPT_ASCII },
		{ "full-tree", no_argument, NULL, OPT_FULL_TREE },
		SUGGEST_LONG_OPTIONS,
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int opt, ret;

	memset(opts, 0, sizeof(*opts));
	opts->format = OUTPUT_TEXT;
	while ((opt = getopt_long(argc, argv, "qh", options, NULL)) != -1) {
		switch (opt) {
		case OPT_EXPORTS:
			opts->exports_file = optarg;
			break;
		case OPT_MOUNTINFO:
			opts->mountinfo_file = optarg;
			break;
		case OPT_NFSV4:
			opts->flags |= BINO_AUDIT_NFSV4;
			break;
		case OPT_JSON:
			opts->format = OUTPUT_JSON;
			break;
		case OPT_SUGGEST:
			opts->suggest = true;
			break;
		case OPT_ASCII:
			opts->tree.ascii = true;
			break;
		case OPT_FULL_TREE:
			opts->tree.full = true;
			break;
		case SUGGEST_OPT_SERVER:
		case SUGGEST_OPT_CLIENT_DIR:
			ret = suggest_config_option(&opts->client, "audit", opt,
						    optarg);
			if (ret)
				return ret;
			break;
		case 'q':
			opts->quiet = true;
			break;
		case 'h':
			usage_audit(stdout);
			return -1;
		default:
			return usage_error("audit", "invalid option");
		}
	}
	if (!opts->suggest && (opts->client.server || opts->client.client_dir))
		return usage_error("audit",
				   "--server and --client-dir go with --suggest");
	return 0;
}


/* ---- formatting -------------------------------------------------------- */

static void print_export_source(struct output *out,
				const struct bino_audit_export *export)
{
	const struct bino_export *source = bino_audit_export_source(export);
	int flags = bino_audit_export_flags(export);

	print_export_json(out, export);
	if (source) {
		if (bino_audit_export_covered(export))
			print_text_path(out, NULL, "  covered by the export of %s to ",
					bino_export_path(source));
		else
			print_string(out, PRINT_TEXT, NULL, "%s", "  exported to ");
		print_string(out, PRINT_TEXT, NULL, "%s",
			     bino_export_client(source));
		print_string(out, PRINT_TEXT, NULL, "(%s)",
			     bino_export_options(source));
		print_text_path(out, NULL, " in %s", bino_export_file(source));
		print_u64(out, PRINT_TEXT, NULL, ":%" PRIu64 "\n",
			  bino_export_line(source));
	} else {
		if (!bino_audit_export_error(export) &&
		    !bino_audit_export_client_view(export))
			print_string(out, PRINT_TEXT, NULL, "%s\n",
				     "  not exported: audited as if exported with default options");
	}
	print_bool(out, PRINT_JSON, "crossmnt", NULL, flags & BINO_EXPORT_CROSSMNT);
	print_bool(out, PRINT_JSON, "nohide", NULL, flags & BINO_EXPORT_NOHIDE);
}

static void print_subvols(struct output *out,
			  const struct bino_audit_export *export)
{
	size_t i, j, n = bino_audit_export_subvol_count(export);

	if (n)
		print_string(out, PRINT_TEXT, NULL, "%s\n", "  subvolumes:");
	output_open_array(out, "subvolumes");
	for (i = 0; i < n; i++) {
		const struct bino_audit_subvol *subvol =
			bino_audit_export_subvol(export, i);
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
			print_string(out, PRINT_ANY, "info_error",
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
		audit_client_subvol(out, export, subvol);
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
			    const struct bino_audit_export *export)
{
	size_t i, n = bino_audit_export_submount_count(export);

	if (n)
		print_string(out, PRINT_TEXT, NULL, "%s\n",
			     "  server mounts below:");
	output_open_array(out, "submounts");
	for (i = 0; i < n; i++) {
		const struct bino_audit_submount *submount =
			bino_audit_export_submount(export, i);
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

static void print_collisions(struct output *out,
			     const struct bino_audit_export *export)
{
	size_t i, j, n;
	int c;

	output_open_object(out, "collisions");
	print_string(out, PRINT_TEXT, NULL, "%s", "  collisions:");
	for (c = 0; c < BINO_COLLISION_NR; c++) {
		char fmt[32];

		snprintf(fmt, sizeof(fmt), " %s %%" PRIu64 "%s",
			 bino_collision_name(c), c + 1 < BINO_COLLISION_NR ? "," : "\n");
		print_u64(out, PRINT_ANY, bino_collision_name(c), fmt,
			  bino_audit_export_collisions(export, c));
	}
	output_close(out);

	output_open_object(out, "examples");
	for (c = 0; c < BINO_COLLISION_NR; c++) {
		output_open_array(out, bino_collision_name(c));
		n = bino_audit_export_example_count(export, c);
		for (i = 0; i < n; i++) {
			const struct bino_audit_example *example =
				bino_audit_export_example(export, c, i);
			struct bino_key a = bino_audit_example_key(example, 0);
			struct bino_key b = bino_audit_example_key(example, 1);

			output_open_object(out, NULL);
			print_string(out, PRINT_TEXT, NULL, "    %s",
				     bino_collision_name(c));
			print_u64(out, PRINT_ANY, "client_fs",
				  " (client fs %" PRIu64,
				  bino_audit_example_client_fs(example));
			print_u64(out, PRINT_ANY, "ino", ", ino %" PRIu64 "):\n",
				  b.ino);
			for (j = 0; j < 2; j++) {
				const struct bino_key *id = j ? &b : &a;

				output_open_object(out, j ? "b" : "a");
				print_text_path(out, "path", "      %s",
						bino_audit_example_path(example,
									(int)j));
				print_dev(out, PRINT_JSON, "dev", NULL, id->dev);
				print_u64(out, PRINT_ANY, "subvolid",
					  "  (subvolume %" PRIu64 ")\n",
					  id->subvolid);
				print_u64(out, PRINT_JSON, "ino", NULL, id->ino);
				output_close(out);
			}
			output_close(out);
		}
		output_close(out);
	}
	output_close(out);

	n = bino_audit_export_pair_count(export);
	if (n)
		print_string(out, PRINT_TEXT, NULL, "%s\n",
			     "  colliding subvolume pairs:");
	output_open_array(out, "subvolume_pairs");
	for (i = 0; i < n; i++) {
		const struct bino_audit_pair *pair = bino_audit_export_pair(export, i);

		output_open_object(out, NULL);
		print_u64(out, PRINT_ANY, "a", "    %" PRIu64, pair->subvolid_a);
		print_u64(out, PRINT_ANY, "b", " and %" PRIu64 ":", pair->subvolid_b);
		for (c = 0; c < BINO_COLLISION_NR; c++) {
			char fmt[32];

			snprintf(fmt, sizeof(fmt), " %s %%" PRIu64,
				 bino_collision_name(c));
			print_u64(out, PRINT_ANY, bino_collision_name(c), fmt,
				  pair->collisions[c]);
		}
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		output_close(out);
	}
	output_close(out);
}

static void print_verdict(struct output *out,
			  const struct bino_audit_export *export)
{
	const char *const *tool;
	bool safe = true;
	int c;

	for (c = 0; c < BINO_COLLISION_NR; c++)
		safe = safe && bino_audit_export_collisions(export, c) == 0;
	output_open_object(out, "verdict");
	print_bool(out, PRINT_JSON, "safe", NULL, safe);
	print_string(out, PRINT_TEXT, NULL, "  verdict: %s",
		     safe ? "safe" : audit_client_unsafe_word(export));
	output_open_object(out, "breaks");
	for (c = 0; c < BINO_COLLISION_NR; c++) {
		if (bino_audit_export_collisions(export, c) == 0)
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
			  const struct bino_audit_export *export,
			  uint64_t *anomalies)
{
	size_t i, n = bino_audit_export_device_count(export);

	if (n)
		print_string(out, PRINT_TEXT, NULL, "%s\n", "  devices:");
	output_open_array(out, "devices");
	for (i = 0; i < n; i++) {
		const struct bino_audit_device *device =
			bino_audit_export_device(export, i);
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

struct audit_summary {
	size_t audited;
	bool findings;
};

/*
 * With --suggest: what suggest prints for the export, after its report
 * (unsafe ones only), or under "suggestion" in JSON (null if not audited).
 */
static void print_suggestion(struct output *out,
			     const struct suggest_config *config,
			     const struct bino_audit_export *export)
{
	bool needed;

	if (output_format(out) == OUTPUT_JSON) {
		if (bino_audit_export_error(export))
			print_string(out, PRINT_JSON, "suggestion", NULL, NULL);
		else
			suggestion_json(out, "suggestion", config, export);
		return;
	}
	if (bino_audit_export_error(export) || !audit_export_unsafe(export))
		return;
	fflush(stdout);
	putchar('\n');
	suggestion_write(config, export, SUGGEST_ALL, stdout, &needed);
}

static void print_export(struct output *out,
			 const struct bino_audit_export *export,
			 const struct suggest_config *suggest,
			 struct audit_summary *summary)
{
	enum bino_error err = bino_audit_export_error(export);
	uint64_t anomalies = 0;

	output_open_object(out, NULL);
	print_text_path(out, "path", "%s\n", bino_audit_export_path(export));
	print_export_source(out, export);
	audit_client_view(out, export);
	print_bool(out, PRINT_JSON, "absent", NULL, audit_export_absent(export));
	if (err) {
		const char *reason = audit_export_reason(export);

		output_open_object(out, "error");
		print_string(out, PRINT_JSON, "step", NULL, bino_strerror(err));
		print_i64(out, PRINT_JSON, "errno", NULL,
			  bino_audit_export_errno(export));
		print_string(out, PRINT_JSON, "message", NULL, reason);
		output_close(out);
		print_string(out, PRINT_TEXT, NULL, "%s",
			     audit_export_absent(export) ?
				     "  not audited: absent on this machine (" :
				     "  not audited: ");
		print_string(out, PRINT_TEXT, NULL, "%s", bino_strerror(err));
		print_string(out, PRINT_TEXT, NULL, ": %s", reason);
		print_string(out, PRINT_TEXT, NULL, "%s\n",
			     audit_export_absent(export) ? ")" : "");
		audit_client_cannot_tell(out, export);
		fprintf(stderr, "%s: %s: %s: %s\n", PROGRAM_NAME,
			bino_audit_export_path(export), bino_strerror(err),
			reason);
		if (suggest)
			print_suggestion(out, suggest, export);
		output_close(out);
		return;
	}
	summary->audited++;
	print_string(out, PRINT_JSON, "error", NULL, NULL);
	/* The server table's, as suggest says it: the same offline too. */
	print_mount(out, "filesystem", bino_audit_export_filesystem(export));
	if (bino_audit_export_filesystem(export)) {
		print_string(out, PRINT_TEXT, NULL, "%s", "  filesystem: ");
		print_mount_text(out, bino_audit_export_filesystem(export));
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
	}
	print_u64(out, PRINT_ANY, "entries", "  entries: %" PRIu64,
		  bino_audit_export_entries(export));
	print_u64(out, PRINT_ANY, "unreadable", " (%" PRIu64 " unreadable)",
		  bino_audit_export_unreadable(export));
	print_u64(out, PRINT_ANY, "client_filesystems",
		  ", client filesystems: %" PRIu64 "\n",
		  bino_audit_export_client_fs_count(export));
	print_subvols(out, export);
	print_submounts(out, export);
	print_collisions(out, export);
	print_devices(out, export, &anomalies);
	print_u64(out, PRINT_JSON, "device_anomalies", NULL, anomalies);
	print_verdict(out, export);
	audit_client_advice(out, export);
	if (suggest)
		print_suggestion(out, suggest, export);
	output_close(out);
	if (audit_export_unsafe(export) || bino_audit_export_unreadable(export) ||
	    anomalies)
		summary->findings = true;
}

static int audit_report(const struct audit_options *opts,
			const struct audit_session *session, struct output *out,
			struct audit_summary *summary)
{
	struct suggest_config config = {
		.exports = session->exports,
		.mounts = session->mounts,
		.server = opts->client.server,
		.client_dir = opts->client.client_dir,
	};
	size_t i, n = bino_audit_count(session->audit);

	if (output_format(out) == OUTPUT_TEXT) {
		if (audit_tree_print(stdout, session->audit, &opts->tree) != 0)
			return -1;
		putchar('\n');
	}
	output_begin(out);
	print_u64(out, PRINT_JSON, "version", NULL, AUDIT_SCHEMA_VERSION);
	print_string(out, PRINT_JSON, "model", NULL,
		     (opts->flags & BINO_AUDIT_NFSV4) ? "nfsv4" : "nfsv3");
	print_bool(out, PRINT_JSON, "privileged", NULL, geteuid() == 0);
	if (print_exports_problems(out, session->exports))
		summary->findings = true;
	output_open_array(out, "exports");
	for (i = 0; i < n; i++) {
		if (i)
			print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		print_export(out, bino_audit_get(session->audit, i),
			     opts->suggest ? &config : NULL, summary);
	}
	output_close(out);
	if (geteuid() != 0)
		print_string(out, PRINT_TEXT, NULL, "\n%s",
			     "note: not root: directories others cannot read were not audited,\n"
			     "and snapshot sources outside the audited trees may be unknown.");
	return output_end(out);
}

int cmd_audit(int argc, char **argv)
{
	struct audit_options opts;
	struct audit_summary summary = { 0 };
	struct audit_request request;
	struct audit_session session;
	struct output *out = NULL;
	int ret;

	ret = parse_audit_options(argc, argv, &opts);
	if (ret < 0)
		return EXIT_CLEAN;
	if (ret > 0)
		return ret;
	memset(&request, 0, sizeof(request));
	request.exports_file = opts.exports_file;
	request.mountinfo_file = opts.mountinfo_file;
	request.flags = opts.flags;
	request.quiet = opts.quiet;
	request.all_btrfs_mounts = true;
	request.paths = argv + optind;
	request.n_paths = (size_t)(argc - optind);
	request.nothing_to_do = "nothing to audit: no exports and no btrfs mounted";
	if (audit_session_run(&request, &session) != 0)
		return EXIT_USAGE;
	ret = EXIT_USAGE;
	out = output_create(opts.format, stdout);
	if (!out) {
		fprintf(stderr, "%s: %s\n", PROGRAM_NAME, strerror(ENOMEM));
		goto out_session;
	}
	if (audit_report(&opts, &session, out, &summary) != 0 ||
	    fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", PROGRAM_NAME,
			strerror(errno));
		goto out_output;
	}
	if (summary.audited == 0)
		ret = EXIT_USAGE;
	else
		ret = summary.findings ? EXIT_FINDINGS : EXIT_CLEAN;
out_output:
	output_destroy(out);
out_session:
	audit_session_release(&session);
	return ret;
}
