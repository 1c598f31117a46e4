/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino audit: what NFS clients of the exports see, and which tools will
 * mistake distinct files for one.  The library computes everything; this
 * file holds the options and the run (audit_session.c), and puts the report
 * together from its parts: the verdicts and the next command
 * (audit_verdict.c), the tree (audit_tree.c), the per-path details or the
 * JSON document (audit_details.c), and with --suggest what suggest prints
 * (suggestion.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "audit_client.h"
#include "audit_details.h"
#include "audit_tree.h"
#include "audit_verdict.h"
#include "audit_drift.h"
#include "btrfsino.h"
#include "cli.h"
#include "commands.h"
#include "color.h"
#include "diag.h"
#include "output.h"
#include "path.h"
#include "audit_prometheus.h"
#include "report.h"
#include "safe_file.h"
#include "suggest_options.h"
#include "suggestion.h"
#include "suggestion_edits.h"
#include "audit_session.h"
#include "server_fstab.h"

#define AUDIT_SCHEMA_VERSION 1
#define SYSTEM_ETAB "/var/lib/nfs/etab"

struct audit_options {
	const char *exports_file;
	const char *etab_file;
	const char *fstab_file;
	const char *mountinfo_file;
	const char *output_file; /* --output-file: instead of stdout */
	bool quiet;
	bool suggest;
	struct suggest_config client; /* only server and client_dir */
	struct audit_tree_options tree;
	struct drift_input drift; /* set after the audit */
	int flags;
	enum output_format format;
	bool prometheus; /* --format prometheus */
	bool verbose; /* the per-target details and example paths */
	bool table_only; /* --raw or --pairs: the table and nothing else */
	bool all_exports; /* no PATH: every exported path, and nothing else */
	enum color_when color;
};

void usage_audit(FILE *stream)
{
	fprintf(stream,
		"Usage: %s audit [OPTION]... [PATH]...\n"
		"Report what NFS clients see of each PATH (default: every path the NFS\n"
		"server exports now, and nothing else): its subvolumes,\n"
		"its client filesystems, the entries whose client (st_dev, st_ino) is shared\n"
		"by distinct files (loop, hardlink, plain), the tools that will break, and the\n"
		"raw device numbers met.  A PATH that is not exported is audited as if\n"
		"exported with default options.  The report opens with one verdict line\n"
		"per PATH, then a table (a tree) of each PATH, its subvolumes and their\n"
		"server mounts, each with its collisions, and ends with the next command.\n\n"
		"Without --exports the table exportfs left in " SYSTEM_ETAB " (what the\n"
		"server serves now) is audited and compared with /etc/exports and\n"
		"/etc/exports.d/*.exports (audited instead when the etab is absent or\n"
		"empty).  Without --exports and --mountinfo, the btrfs lines of\n"
		SYSTEM_FSTAB " at or below an export are checked to be mounted.\n"
		"Drift is a finding.\n\n"
		"Output:\n"
		"  -J, --json            one JSON document (btrfs-ino(1), JSON OUTPUT);\n"
		"                        the table's values are in it too; with -o or\n"
		"                        --list, the table alone in JSON (findmnt -J)\n"
		"      --format FORMAT   text (default) or prometheus: node_exporter\n"
		"                        textfile collector metrics\n"
		"      --output-file FILE  write the output to FILE, mode 0644, instead of\n"
		"                        standard output: whole, through a new file beside\n"
		"                        it renamed onto it, never through a symbolic link;\n"
		"                        FILE is left as it was when the exit status is 2\n"
		"  -o, --output LIST     the table's columns (see below; +LIST adds\n"
		"                        to the default ones)\n"
		"  -l, --list            the table as a list, not a tree\n"
		"  -r, --raw             the table only, raw (space-separated, escaped)\n"
		"  -P, --pairs           the table only, as NAME=\"value\" pairs\n"
		"  -n, --noheadings      no column headings\n"
		"  -v, --verbose         also each PATH's details: subvolumes, mounts,\n"
		"                        example paths of each collision, devices\n"
		"      --color[=WHEN]    colour the output: auto (default), always, never\n"
		"      --ascii           draw the tree with ASCII characters, not box drawing\n"
		"      --full-tree       list every snapshot in the tree (by default a run of\n"
		"                        more than 8 shows the first and last 3 and a count)\n\n"
		"Audit:\n"
		"      --exports FILE    audit this exports(5) file instead of the etab and\n"
		"                        the system's exports files (no etab is read)\n"
		"      --etab FILE       audit this etab instead, compared with the exports\n"
		"                        files (or --exports FILE)\n"
		"      --fstab FILE      check this server fstab(5) (default: " SYSTEM_FSTAB "\n"
		"                        without --exports and --mountinfo, else none)\n"
		"      --mountinfo FILE  the server's mount table (mountinfo format)\n"
		"                        instead of this process's own\n"
		"      --nfsv4           model NFSv4 clients: they also cross into\n"
		"                        exported mounts without nohide\n"
		"      --suggest         after each unsafe export, what 'suggest' prints for\n"
		"                        it; with --json, a \"suggestion\" object per export\n"
		"      --server NAME     with --suggest: the server's name in client lines\n"
		"                        (default: this host's name)\n"
		"      --client-dir DIR  with --suggest: where clients mount PATH (default:\n"
		"                        PATH itself)\n"
		"  -q, --quiet           no progress on stderr\n"
		"  -h, --help            show this help and exit\n\n"
		"Columns (-o, default NAME,LOOP,HARDLINK,PLAIN,DETAILS):\n",
		PROGRAM_NAME);
	audit_tree_columns_help(stream);
	fprintf(stream,
		"\nExit status: 0 nothing found, 1 collisions, unreadable entries,\n"
		"unexplained devices, an exports file exportfs stops reading or drift\n"
		"between the etab or fstab and what the server has, 2 usage error or\n"
		"nothing could be audited.  See btrfs-ino(1).\n");
}

enum {
	OPT_EXPORTS = 256,
	OPT_ETAB,
	OPT_FSTAB,
	OPT_MOUNTINFO,
	OPT_NFSV4,
	OPT_SUGGEST,
	OPT_ASCII,
	OPT_FULL_TREE,
	OPT_FORMAT,
	OPT_COLOR,
	OPT_OUTPUT_FILE,
};

static const struct option audit_long_options[] = {
	{ "exports", required_argument, NULL, OPT_EXPORTS },
	{ "etab", required_argument, NULL, OPT_ETAB },
	{ "fstab", required_argument, NULL, OPT_FSTAB },
	{ "mountinfo", required_argument, NULL, OPT_MOUNTINFO },
	{ "nfsv4", no_argument, NULL, OPT_NFSV4 },
	{ "json", no_argument, NULL, 'J' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "output-file", required_argument, NULL, OPT_OUTPUT_FILE },
	{ "output", required_argument, NULL, 'o' },
	{ "list", no_argument, NULL, 'l' },
	{ "raw", no_argument, NULL, 'r' },
	{ "pairs", no_argument, NULL, 'P' },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "suggest", no_argument, NULL, OPT_SUGGEST },
	{ "ascii", no_argument, NULL, OPT_ASCII },
	{ "full-tree", no_argument, NULL, OPT_FULL_TREE },
	SUGGEST_LONG_OPTIONS,
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Where an option that names a file goes in @opts, or NULL if @opt names none. */
static const char **audit_file_option(int opt, struct audit_options *opts)
{
	switch (opt) {
	case OPT_EXPORTS:
		return &opts->exports_file;
	case OPT_ETAB:
		return &opts->etab_file;
	case OPT_FSTAB:
		return &opts->fstab_file;
	case OPT_MOUNTINFO:
		return &opts->mountinfo_file;
	case OPT_OUTPUT_FILE:
		return &opts->output_file;
	default:
		return NULL;
	}
}

/* The switch an option without argument turns on, or NULL if @opt is none. */
static bool *audit_switch_option(int opt, struct audit_options *opts)
{
	switch (opt) {
	case 'n':
		return &opts->tree.noheadings;
	case 'v':
		return &opts->verbose;
	case OPT_SUGGEST:
		return &opts->suggest;
	case OPT_ASCII:
		return &opts->tree.ascii;
	case OPT_FULL_TREE:
		return &opts->tree.full;
	case 'q':
		return &opts->quiet;
	default:
		return NULL;
	}
}

/* --format, --color, -o, --list, --raw, --pairs: an option parser (cli.h). */
static int audit_output_option(int opt, const char *arg,
			       struct audit_options *opts)
{
	switch (opt) {
	case OPT_FORMAT:
		if (strcmp(arg, "prometheus") != 0 && strcmp(arg, "text") != 0)
			return usage_error("audit", "unknown format '%s'", arg);
		opts->prometheus = strcmp(arg, "prometheus") == 0;
		return OPTIONS_GO_ON;
	case OPT_COLOR:
		return color_parse_when("audit", arg, &opts->color);
	case 'o':
		return audit_tree_parse_columns(arg, &opts->tree);
	case 'l':
		opts->tree.mode = AUDIT_TREE_LIST;
		return OPTIONS_GO_ON;
	case 'r':
		opts->tree.mode = AUDIT_TREE_RAW;
		opts->table_only = true;
		return OPTIONS_GO_ON;
	default: /* 'P' */
		opts->tree.mode = AUDIT_TREE_PAIRS;
		opts->table_only = true;
		return OPTIONS_GO_ON;
	}
}

/* Take one option @opt (with @arg) into @data, the options: an option parser (cli.h). */
static int audit_option(int opt, const char *arg, void *data)
{
	struct audit_options *opts = data;
	const char **file = audit_file_option(opt, opts);
	bool *on = audit_switch_option(opt, opts);

	if (file)
		*file = arg;
	if (on)
		*on = true;
	if (file || on)
		return OPTIONS_GO_ON;
	switch (opt) {
	case OPT_NFSV4:
		opts->flags |= BINO_AUDIT_NFSV4;
		return OPTIONS_GO_ON;
	case 'J':
		opts->format = OUTPUT_JSON;
		return OPTIONS_GO_ON;
	case OPT_FORMAT: case OPT_COLOR: case 'o': case 'l': case 'r': case 'P':
		return audit_output_option(opt, arg, opts);
	case SUGGEST_OPT_SERVER:
	case SUGGEST_OPT_CLIENT_DIR:
		return suggest_config_option(&opts->client, "audit", opt, arg);
	case 'h':
		usage_audit(stdout);
		return OPTIONS_HELP_SHOWN;
	default:
		return usage_try("audit");
	}
}

static const struct option_parser audit_parser = {
	"Jo:lrPnvqh", audit_long_options, audit_option,
};

/* What the options ask together: an option parser (cli.h). */
static int audit_options_check(struct audit_options *opts)
{
	if (!opts->suggest && (opts->client.server || opts->client.client_dir))
		return usage_error("audit",
				   "--server and --client-dir go with --suggest");
	if (opts->prometheus && opts->format == OUTPUT_JSON)
		return usage_error("audit", "--json and --format exclude each other");
	/* findmnt -J -o: the table alone, in JSON, with those columns. */
	if (opts->format == OUTPUT_JSON &&
	    (opts->tree.n_cols || opts->tree.mode == AUDIT_TREE_LIST) &&
	    !opts->tree.noheadings && !opts->verbose && !opts->suggest) {
		opts->format = OUTPUT_TEXT;
		opts->tree.json = true;
		opts->table_only = true;
	}
	if ((opts->prometheus || opts->format == OUTPUT_JSON) &&
	    (opts->tree.mode != AUDIT_TREE_TREE || opts->tree.n_cols ||
	     opts->tree.noheadings || opts->verbose))
		return usage_error("audit", "a table option (-o, --list, --raw, --pairs, "
				   "--noheadings, --verbose) goes with the text report only");
	if (opts->table_only && (opts->verbose || opts->suggest))
		return usage_error("audit", "--raw and --pairs print the table only: "
				   "not with --verbose or --suggest");
	if (opts->tree.json && opts->tree.mode != AUDIT_TREE_TREE &&
	    opts->tree.mode != AUDIT_TREE_LIST)
		return usage_error("audit", "--json and --raw or --pairs exclude each other");
	/* A file is no terminal: "auto" means no colour there. */
	opts->tree.color = color_wanted(opts->output_file && opts->color == COLOR_AUTO ?
						COLOR_NEVER : opts->color);
	return OPTIONS_GO_ON;
}

/* audit's options into @opts: an option parser (cli.h). */
static int parse_audit_options(int argc, char **argv, struct audit_options *opts)
{
	int ret;

	memset(opts, 0, sizeof(*opts));
	opts->format = OUTPUT_TEXT;
	ret = options_parse(&audit_parser, argc, argv, opts);
	if (ret != OPTIONS_GO_ON)
		return ret;
	return audit_options_check(opts);
}

struct audit_summary {
	size_t audited;
	bool findings;
	long drift; /* drift findings, once reported */
	struct drift_steps steps; /* what they ask to run, once reported */
};

/* Devices met that the mount table does not explain. */
static uint64_t export_anomalies(const struct bino_audit_target *target)
{
	size_t i, n = bino_audit_target_device_count(target);
	uint64_t anomalies = 0;

	for (i = 0; i < n; i++)
		anomalies += bino_audit_device_kind(bino_audit_target_device(
				     target, i)) == BINO_DEVICE_ANOMALY;
	return anomalies;
}

/* What the exit status says, and each path not audited once on stderr. */
static void audit_summarise(const struct audit_session *session,
			    struct audit_summary *summary)
{
	size_t i, n = bino_audit_count(session->audit);

	if (bino_exports_error_count(session->files))
		summary->findings = true;
	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target =
			bino_audit_get(session->audit, i);
		enum bino_error err = bino_audit_target_error(target);

		if (err) {
			/* A path not audited is a per-entry error: exit 1 beside others. */
			diag_path(bino_audit_target_path(target), "%s: %s",
				  bino_strerror(err), audit_target_reason(target));
			summary->findings = true;
			continue;
		}
		summary->audited++;
		if (audit_target_unsafe(target) ||
		    bino_audit_target_unreadable(target) ||
		    export_anomalies(target))
			summary->findings = true;
	}
}

/*
 * On an NFS client, what the verdict lines cannot say: why a path cannot be
 * told, or what this client can do about an unsafe one.  Returns 0, or -1
 * with the reason on stderr (out of memory).
 */
static int print_client_views(struct output *out,
			      const struct bino_audit *audit)
{
	size_t i, n = bino_audit_count(audit);

	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(audit, i);

		if (!bino_audit_target_client_view(target))
			continue;
		if (bino_audit_target_error(target)) {
			print_text_path(out, NULL, "\n%s:\n",
					bino_audit_target_path(target));
			audit_client_cannot_tell(out, target);
		} else if (audit_target_unsafe(target)) {
			print_text_path(out, NULL, "\n%s:\n",
					bino_audit_target_path(target));
			if (audit_client_advice(out, target) != 0) {
				diag_no_memory();
				return -1;
			}
		}
	}
	return 0;
}

/*
 * The drift report (audit_drift.c); drift, like a collision, is a finding
 * for the exit status, and what it asks to run is the next step.  0, or -1
 * with the reason on stderr (print_drift()).
 */
static int note_drift(struct output *out, const struct drift_input *drift,
		      struct audit_summary *summary)
{
	long found = print_drift(out, drift, &summary->steps);

	if (found < 0)
		return -1;
	if (found > 0)
		summary->findings = true;
	summary->drift = found;
	return 0;
}

/* The table audited without a PATH: what the server serves, else its files. */
static const char *audited_table(const struct audit_options *opts)
{
	return opts->drift.session->etab ? opts->drift.etab_file :
					   opts->drift.files_name;
}

/*
 * --format prometheus: the gauges, drift counted as in text, so that a
 * drifted server exits 1 here as it does there.  0, or -1 with the reason
 * on stderr.
 */
static int audit_prometheus(const struct audit_options *opts,
			    const struct audit_session *session,
			    double seconds, struct audit_summary *summary)
{
	struct prometheus_run run = {
		.session = session,
		.drift = &opts->drift,
		.seconds = seconds,
		.finished = time(NULL),
	};

	if (prometheus_write(stdout, &run, &summary->drift) != 0)
		return -1;
	if (summary->drift > 0)
		summary->findings = true;
	return 0;
}

/*
 * No PATH and nothing exported: nothing is unsafe (a result, exit status
 * 0: not "nothing could be audited"), and the drift (an exports file that
 * exportfs has not applied) is still worth saying.  0, or -1 with the
 * reason on stderr.
 */
static int audit_nothing_exported(const struct audit_options *opts,
				  struct output *out,
				  struct audit_summary *summary)
{
	if (note_drift(out, &opts->drift, summary) != 0)
		return -1;
	print_text_path(out, NULL, "nothing exported in %s: no NFS client sees "
			"a subvolume here\n", audited_table(opts));
	return 0;
}

/*
 * The JSON document, or with --verbose the full text report: 0, or -1
 * with the reason on stderr.
 */
static int audit_document(const struct audit_options *opts,
			  const struct audit_session *session,
			  struct output *out, const struct suggest_config *config,
			  struct audit_summary *summary)
{
	size_t i, n = bino_audit_count(session->audit);
	enum details_end end = DETAILS_WHOLE;

	output_begin(out);
	print_u64(out, PRINT_JSON, "version", NULL, AUDIT_SCHEMA_VERSION);
	print_string(out, PRINT_JSON, "model", NULL,
		     (opts->flags & BINO_AUDIT_NFSV4) ? "nfsv4" : "nfsv3");
	print_bool(out, PRINT_JSON, "privileged", NULL, geteuid() == 0);
	print_exports_problems(out, session->files);
	if (note_drift(out, &opts->drift, summary) != 0)
		return -1;
	output_open_array(out, "exports");
	for (i = 0; i < n && end != DETAILS_FAILED; i++) {
		if (i)
			print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		const struct bino_audit_target *target = bino_audit_get(session->audit, i);

		end = audit_details_export(out, session->exports, target,
					   opts->suggest ? config : NULL,
					   suggestion_covering(session->audit, target));
		summary->findings = summary->findings || end == DETAILS_NO_SUGGESTION;
	}
	output_close(out);
	if (output_end(out) != 0 && end != DETAILS_FAILED) {
		diag_output_error(errno);
		return -1;
	}
	return end == DETAILS_FAILED ? -1 : 0;
}

/*
 * After the table, a note per path that is no btrfs and where clients see
 * no subvolume: the audit is about btrfs subvolumes, so an admin who named
 * the wrong path learns it here (a hint: the path is audited all the same,
 * and its verdict and exit status are the audit's).
 */
static void note_not_btrfs(struct output *out, const struct bino_audit *audit)
{
	size_t i, n = bino_audit_count(audit);

	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(audit, i);
		const struct bino_mount *mount = bino_audit_target_mount(target);

		if (!mount || bino_audit_target_client_view(target) ||
		    strcmp(bino_mount_fstype(mount), "btrfs") == 0 ||
		    bino_audit_target_subvol_count(target) > 0)
			continue;
		print_text_path(out, NULL, "(%s: ", bino_audit_target_path(target));
		print_string(out, PRINT_TEXT, NULL,
			     "not btrfs but %s: clients see no btrfs subvolume below it)\n",
			     bino_mount_fstype(mount));
	}
}

/*
 * Whether suggest --diff would change a file for an unsafe server-view
 * path of @audit (an exports or server fstab edit) into *@change: if not,
 * what remains is to mount the subvolumes.  Returns 0, or -1 with the
 * reason on stderr (suggestion_edits()).
 */
static int files_change(const struct suggest_config *config,
			const struct bino_audit *audit, bool *change)
{
	static const enum suggest_block blocks[] = {
		SUGGEST_EXPORTS, SUGGEST_SERVER_FSTAB,
	};
	size_t i, b, e, n = bino_audit_count(audit);
	int rc = 0;

	*change = false;
	for (i = 0; i < n && rc == 0 && !*change; i++) {
		const struct bino_audit_target *target = bino_audit_get(audit, i);

		if (bino_audit_target_error(target) || !audit_target_unsafe(target) ||
		    bino_audit_target_client_view(target))
			continue;
		for (b = 0; b < 2 && rc == 0 && !*change; b++) {
			struct edit_list list = { 0 };

			rc = suggestion_edits(config, target, blocks[b], &list);
			for (e = 0; rc == 0 && e < list.n; e++)
				*change = *change || list.edit[e].kind == EDIT_REPLACE ||
					  list.edit[e].kind == EDIT_REMOVE ||
					  list.edit[e].kind == EDIT_APPEND;
			edit_list_free(&list);
		}
	}
	return rc;
}

/*
 * The text report's end, without --verbose: the exports problems, the
 * drift, the client views and with --suggest the suggestions.  @problems:
 * whether the exports problems were printed (they end with a blank line).
 * Returns 0, or -1 with the reason on stderr.
 */
static int audit_text_rest(const struct audit_options *opts,
			   const struct audit_session *session, struct output *out,
			   const struct suggest_config *config,
			   struct audit_summary *summary)
{
	size_t i, n = bino_audit_count(session->audit);

	print_exports_problems(out, session->files);
	if (note_drift(out, &opts->drift, summary) != 0 ||
	    print_client_views(out, session->audit) != 0)
		return -1;
	for (i = 0; opts->suggest && i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(session->audit, i);

		if (audit_details_suggestion(out, config, target,
					     suggestion_covering(session->audit, target)) !=
		    DETAILS_WHOLE)
			summary->findings = true;
	}
	return 0;
}

/*
 * On an NFS client, the client's mount of the first audited path below
 * which the server has mounts this client had not crossed before the
 * audit: the walk met more client filesystems than the mount table read
 * before it listed below that mount (the walk crossed the rest).  NULL if
 * none.
 */
static const char *uncrossed_mounts(const struct audit_session *session)
{
	size_t i, k, n = bino_audit_count(session->audit);
	size_t n_mounts = bino_mounts_count(session->mounts);

	for (i = 0; i < n; i++) {
		const struct bino_audit_target *target = bino_audit_get(session->audit, i);
		const struct bino_mount *mount = bino_audit_target_mount(target);
		size_t crossed = 0;

		if (bino_audit_target_error(target) || !mount ||
		    !bino_audit_target_client_view(target))
			continue;
		for (k = 0; k < n_mounts; k++)
			crossed += bino__path_below(bino_mount_target(
				bino_mounts_get(session->mounts, k)), bino_mount_target(mount));
		if (bino_audit_target_client_fs_count(target) > crossed + 1)
			return bino_mount_target(mount);
	}
	return NULL;
}

/*
 * The next: line, after the note that an unprivileged audit may have
 * missed some.  @blank: a blank line before them.  Returns 0, or -1 with
 * the reason on stderr.
 */
static int audit_next(const struct audit_options *opts,
		      const struct audit_session *session, struct output *out,
		      const struct suggest_config *config,
		      const struct audit_summary *summary, bool blank)
{
	struct audit_next next = {
		.exports_file = opts->exports_file,
		.mountinfo_file = opts->mountinfo_file,
		.server = opts->client.server,
		.client_dir = opts->client.client_dir,
		.drift = summary->steps,
		.keeper_dir = uncrossed_mounts(session),
	};
	bool change;

	if (geteuid() != 0) {
		print_string(out, PRINT_TEXT, NULL, blank ? "\n%s\n" : "%s\n",
			     "note: not root: directories others cannot read were not audited,\n"
			     "and snapshot sources outside the audited trees may be unknown.");
		blank = false;
	}
	if (!opts->suggest) {
		if (files_change(config, session->audit, &change) != 0)
			return -1;
		next.files_right = !change;
	}
	if (audit_next_line(out, session->audit, &next, blank, opts->suggest) != 0) {
		diag_no_memory();
		return -1;
	}
	return 0;
}

/*
 * The text report: verdicts, the table, its notes, the rest (or with
 * --verbose the details) and the next step.  Returns 0, or -1 with the
 * reason on stderr.
 */
static int audit_text(const struct audit_options *opts,
		      const struct audit_session *session, struct output *out,
		      const struct suggest_config *config,
		      struct audit_summary *summary)
{
	const struct bino_audit *audit = session->audit;
	struct audit_tree_options tree = opts->tree;
	size_t i, n = bino_audit_count(audit);
	bool counted = false, problems = false;

	tree.exports = session->exports;
	if (!opts->table_only) {
		if (audit_verdict_lines(out, audit, opts->tree.color) != 0) {
			diag_no_memory();
			return -1;
		}
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
	}
	fflush(stdout);
	if (audit_tree_print(stdout, audit, &tree) != 0) {
		diag_output_error(errno);
		return -1;
	}
	if (opts->table_only)
		return 0;
	for (i = 0; i < n; i++)
		counted = counted || !bino_audit_target_error(bino_audit_get(audit, i));
	/* The note is about counts: none when nothing was audited. */
	if (counted)
		print_string(out, PRINT_TEXT, NULL, "%s\n",
			     "(collisions between two subvolumes are counted once, at the higher ID)");
	note_not_btrfs(out, audit);
	if (opts->all_exports)
		print_text_path(out, NULL, "(audited: every path exported in %s)\n",
				audited_table(opts));
	if (opts->verbose) {
		print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		if (audit_document(opts, session, out, config, summary) != 0)
			return -1;
	} else {
		/* They end with a blank line of their own. */
		problems = bino_exports_error_count(session->files) ||
			   bino_exports_warning_count(session->files);
		if (problems)
			print_string(out, PRINT_TEXT, NULL, "%s", "\n");
		if (audit_text_rest(opts, session, out, config, summary) != 0)
			return -1;
	}
	return audit_next(opts, session, out, config, summary, !problems);
}

/*
 * The report in the form @opts ask.  Returns 0, or -1 with the reason on
 * stderr when it could not be made or written: every part says its own
 * failure, once (cli.h).
 */
static int audit_report(const struct audit_options *opts,
			const struct audit_session *session, struct output *out,
			double seconds, struct audit_summary *summary)
{
	struct suggest_config config = {
		.exports = session->files, /* what to change: the files */
		.mounts = session->mounts,
		.server = opts->client.server,
		.client_dir = opts->client.client_dir,
		.exports_file = opts->exports_file,
	};

	if (opts->prometheus)
		return audit_prometheus(opts, session, seconds, summary);
	if (output_format(out) == OUTPUT_JSON)
		return audit_document(opts, session, out, &config, summary);
	if (bino_audit_count(session->audit) == 0 && opts->all_exports)
		return audit_nothing_exported(opts, out, summary);
	return audit_text(opts, session, out, &config, summary);
}

/*
 * --output-file: the output goes to a new file beside FILE (stdout is
 * pointed at it, so every writer of the report follows), renamed onto
 * FILE once whole, so that node_exporter's textfile collector never reads
 * half a file; a run that fails leaves FILE as it was.
 */
struct audit_output_file {
	char *dir; /* FILE's directory, as named */
	const char *name; /* FILE's last component */
	int dir_fd;
	int stdout_fd; /* the real stdout while redirected, else -1 */
	struct safe_file file;
};

/*
 * Open FILE's directory, before the audit: a bad FILE fails at once.
 * Returns 0, or -1 with the reason on stderr.
 */
static int output_file_open(const char *path, struct audit_output_file *target)
{
	*target = (struct audit_output_file){ .dir_fd = -1, .stdout_fd = -1 };
	target->dir = safe_file_dir_of(path, &target->name);
	if (!target->dir && errno == EINVAL) {
		usage_error("audit", "--output-file '%s' names no file", path);
		return -1;
	}
	if (!target->dir) {
		diag_path(path, "%s", strerror(errno));
		return -1;
	}
	target->dir_fd = safe_dir_open(target->dir, 0);
	if (target->dir_fd < 0) {
		free(target->dir);
		target->dir = NULL;
		return -1;
	}
	return 0;
}

/* Point stdout at a new file beside FILE.  0, or -1 with the reason on stderr. */
static int output_file_begin(struct audit_output_file *target)
{
	if (safe_file_begin(&target->file, target->dir_fd, target->dir,
			    target->name) != 0)
		return -1;
	fflush(stdout);
	target->stdout_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
	if (target->stdout_fd < 0 ||
	    dup2(target->file.fd, STDOUT_FILENO) != STDOUT_FILENO) {
		diag_message("cannot redirect the output: %s", strerror(errno));
		safe_file_discard(&target->file);
		return -1;
	}
	return 0;
}

/*
 * Give stdout back; rename the file onto FILE after a run of exit status
 * @ret 0 or 1, else remove it.  Returns the exit status: @ret, or
 * EXIT_USAGE if the file could not be put in place.
 */
static int output_file_end(struct audit_output_file *target, int ret)
{
	int restored;

	if (target->stdout_fd < 0)
		return ret;
	fflush(stdout); /* its failure was the run's: ferror() told it */
	restored = dup2(target->stdout_fd, STDOUT_FILENO);
	if (restored != STDOUT_FILENO) {
		diag_message("cannot restore the output: %s", strerror(errno));
		ret = EXIT_USAGE;
	}
	close(target->stdout_fd);
	target->stdout_fd = -1;
	if (ret == EXIT_USAGE) {
		safe_file_discard(&target->file);
		return ret;
	}
	return safe_file_commit(&target->file, 0644) == 0 ? ret : EXIT_USAGE;
}

static void output_file_close(struct audit_output_file *target)
{
	if (target->dir_fd >= 0)
		close(target->dir_fd);
	free(target->dir);
}

int cmd_audit(int argc, char **argv)
{
	struct audit_options opts;
	struct audit_summary summary = { 0 };
	struct audit_request request;
	struct audit_session session;
	struct audit_output_file target = { .dir_fd = -1, .stdout_fd = -1 };
	struct output *out = NULL;
	struct timespec start, end;
	int ret;

	ret = parse_audit_options(argc, argv, &opts);
	if (ret != OPTIONS_GO_ON)
		return options_exit_status(ret);
	if (opts.output_file && output_file_open(opts.output_file, &target) != 0)
		return EXIT_USAGE;
	memset(&request, 0, sizeof(request));
	request.exports_file = opts.exports_file;
	request.etab_file = opts.etab_file;
	if (!request.etab_file && !opts.exports_file)
		request.etab_file = SYSTEM_ETAB;
	request.mountinfo_file = opts.mountinfo_file;
	request.flags = opts.flags;
	request.quiet = opts.quiet;
	request.no_exports_is_a_result = true;
	opts.all_exports = optind == argc;
	request.paths = argv + optind;
	request.n_paths = (size_t)(argc - optind);
	clock_gettime(CLOCK_MONOTONIC, &start);
	ret = EXIT_USAGE;
	if (audit_session_run(&request, &session) != AUDIT_SESSION_RAN)
		goto out_target;
	clock_gettime(CLOCK_MONOTONIC, &end);
	opts.drift = (struct drift_input){
		.session = &session,
		.etab_file = request.etab_file,
		.files_name = opts.exports_file ? opts.exports_file :
			"/etc/exports and /etc/exports.d",
		.fstab_file = opts.fstab_file,
		.note_etab = opts.etab_file || opts.all_exports,
	};
	if (!opts.fstab_file && !opts.exports_file && !opts.mountinfo_file)
		opts.drift.fstab_file = SYSTEM_FSTAB;
	audit_summarise(&session, &summary);
	ret = EXIT_USAGE;
	out = output_create(opts.format, stdout);
	if (!out) {
		diag_no_memory();
		goto out_session;
	}
	if (opts.output_file && output_file_begin(&target) != 0)
		goto out_output;
	if (audit_report(&opts, &session, out,
			 (double)(end.tv_sec - start.tv_sec) +
				 (double)(end.tv_nsec - start.tv_nsec) / 1e9,
			 &summary) != 0)
		goto out_output; /* it said why */
	errno = 0; /* what ferror() finds may be an earlier write's, errno gone */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		diag_write_error(errno ? errno : EIO);
		goto out_output;
	}
	if (summary.audited == 0 &&
	    !(opts.all_exports && bino_audit_count(session.audit) == 0))
		ret = EXIT_USAGE;
	else
		ret = summary.findings ? EXIT_FINDINGS : EXIT_CLEAN;
out_output:
	ret = output_file_end(&target, ret);
	output_destroy(out);
out_session:
	audit_session_release(&session);
out_target:
	output_file_close(&target);
	return ret;
}
