/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino suggest: for each export the audit finds unsafe, paste-ready
 * configuration that gives every btrfs subvolume below it a filesystem of
 * its own on the clients (see suggestion.c, which audit --suggest shares),
 * and for a safe one what its clients mount, as text or as one JSON
 * document.  Exports nested on one filesystem are one tree: the outermost
 * path of the run writes its blocks.  Nothing on the system is changed.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btrfsino.h"
#include "cli.h"
#include "commands.h"
#include "output.h"
#include "quote.h"
#include "report.h"
#include "safe_file.h"
#include "suggest_options.h"
#include "diag.h"
#include "suggest_diff.h"
#include "suggestion.h"
#include "audit_session.h"
#include "server_fstab.h"

#define SUGGEST_SCHEMA_VERSION 1

struct suggest_options {
	const char *exports_file;
	const char *mountinfo_file;
	const char *fstab_file;
	const char *output_dir;
	bool diff;
	struct suggest_config client; /* only server and client_dir */
	enum suggest_block block;
	enum output_format format;
	bool quiet;
};

void usage_suggest(FILE *stream)
{
	fprintf(stream,
		"Usage: %s suggest [OPTION]... [PATH]...\n"
		"For each PATH (default: every path in the system's NFS exports) that\n"
		"'audit' finds unsafe, print paste-ready configuration that gives every\n"
		"btrfs subvolume below it a filesystem of its own on the NFS clients: server\n"
		"fstab lines, the exports lines, client fstab lines and an autofs map, what\n"
		"to do about later snapshots, and what users who cannot change the server\n"
		"can do.  Nothing on the system is changed.\n\n"
		"Options:\n"
		"      --exports FILE    use this exports(5) file instead of /etc/exports\n"
		"                        and /etc/exports.d/*.exports\n"
		"      --mountinfo FILE  the server's mount table (mountinfo format)\n"
		"                        instead of this process's own\n"
		"      --format BLOCK    print only one block: server-fstab, mount-units,\n"
		"                        exports, exports-nohide, client-fstab, autofs or\n"
		"                        snapshot-hook\n"
		"  -J, --json            one JSON document: per PATH the facts and the text\n"
		"                        of every block (see btrfs-ino(1))\n"
		"      --diff            unified diffs of the exports file(s) and the server\n"
		"                        fstab instead: apply with 'patch -d / -p0'; one\n"
		"                        kind of file with --format exports or server-fstab,\n"
		"                        which 'patch FILE' also applies\n"
		"      --fstab FILE      the server fstab (default: " SYSTEM_FSTAB ", not\n"
		"                        read with --exports or --mountinfo unless --diff):\n"
		"                        its lines of deleted subvolumes and of snapshots\n"
		"                        are to be removed; --diff changes it\n"
		"      --output-dir DIR  also write the mount units into DIR, each in a file\n"
		"                        named as systemd requires; DIR and its missing\n"
		"                        parents are made, and a DIR others may write is\n"
		"                        refused (see btrfs-ino(1))\n"
		"      --server NAME     the server's name in client lines (default: this\n"
		"                        host's name)\n"
		"      --client-dir DIR  where clients mount PATH (default: PATH itself)\n"
		"  -q, --quiet           no progress on stderr\n"
		"  -h, --help            show this help and exit\n\n"
		"Exit status: 0 suggestions printed, or nothing to suggest; with --diff,\n"
		"as diff(1): 0 no change, 1 changes printed; 1 also when an exports file\n"
		"has an error exportfs stops at, or a PATH got no suggestion while\n"
		"others did; 2 usage error or nothing could be audited.  Exports errors\n"
		"and warnings go to stderr, except in --json.\n",
		PROGRAM_NAME);
}

enum {
	OPT_EXPORTS = 256,
	OPT_MOUNTINFO,
	OPT_FORMAT,
	OPT_DIFF,
	OPT_FSTAB,
	OPT_OUTPUT_DIR,
};

static const struct option suggest_long_options[] = {
	{ "exports", required_argument, NULL, OPT_EXPORTS },
	{ "mountinfo", required_argument, NULL, OPT_MOUNTINFO },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "json", no_argument, NULL, 'J' },
	SUGGEST_LONG_OPTIONS,
	{ "diff", no_argument, NULL, OPT_DIFF },
	{ "fstab", required_argument, NULL, OPT_FSTAB },
	{ "output-dir", required_argument, NULL, OPT_OUTPUT_DIR },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Where an option that names a file goes in @opts, or NULL if @opt names none. */
static const char **suggest_file_option(int opt, struct suggest_options *opts)
{
	switch (opt) {
	case OPT_EXPORTS:
		return &opts->exports_file;
	case OPT_MOUNTINFO:
		return &opts->mountinfo_file;
	case OPT_FSTAB:
		return &opts->fstab_file;
	case OPT_OUTPUT_DIR:
		return &opts->output_dir;
	default:
		return NULL;
	}
}

/* Take one option @opt (with @arg) into @data, the options: an option parser (cli.h). */
static int suggest_option(int opt, const char *arg, void *data)
{
	struct suggest_options *opts = data;
	const char **file = suggest_file_option(opt, opts);
	char names[160];
	int block;

	if (file) {
		*file = arg;
		return OPTIONS_GO_ON;
	}
	switch (opt) {
	case OPT_FORMAT:
		block = suggest_block_from_name(arg);
		if (block < 0) {
			suggest_block_names(names, sizeof(names));
			return usage_error("suggest", "unknown format '%s': one of %s",
					   arg, names);
		}
		opts->block = block;
		return OPTIONS_GO_ON;
	case 'J':
		opts->format = OUTPUT_JSON;
		return OPTIONS_GO_ON;
	case SUGGEST_OPT_SERVER:
	case SUGGEST_OPT_CLIENT_DIR:
		return suggest_config_option(&opts->client, "suggest", opt, arg);
	case OPT_DIFF:
		opts->diff = true;
		return OPTIONS_GO_ON;
	case 'q':
		opts->quiet = true;
		return OPTIONS_GO_ON;
	case 'h':
		usage_suggest(stdout);
		return OPTIONS_HELP_SHOWN;
	default:
		return usage_try("suggest");
	}
}

static const struct option_parser suggest_parser = {
	"Jqh", suggest_long_options, suggest_option,
};

/* suggest's options into @opts: an option parser (cli.h). */
static int parse_suggest_options(int argc, char **argv,
				 struct suggest_options *opts)
{
	int ret;

	memset(opts, 0, sizeof(*opts));
	opts->block = SUGGEST_ALL;
	opts->format = OUTPUT_TEXT;
	ret = options_parse(&suggest_parser, argc, argv, opts);
	if (ret != OPTIONS_GO_ON)
		return ret;
	if (opts->format == OUTPUT_JSON && opts->block != SUGGEST_ALL)
		return usage_error("suggest",
				   "--json holds every block: it excludes --format");
	if (opts->diff && opts->format == OUTPUT_JSON)
		return usage_error("suggest", "--diff excludes --json");
	if (opts->diff && opts->block != SUGGEST_ALL &&
	    opts->block != SUGGEST_EXPORTS && opts->block != SUGGEST_SERVER_FSTAB)
		return usage_error("suggest",
				   "--diff changes the exports and server-fstab files only");
	return OPTIONS_GO_ON;
}

struct suggest_summary {
	size_t audited;
	size_t path_errors; /* paths with no suggestion (said): exit 1 */
	bool first; /* nothing printed yet */
	bool failed; /* some output could not be made (said): exit 2 */
};

/*
 * The audit of @index to suggest from, or NULL when an earlier one has the
 * same path: a path is audited once per crossmnt among its clients, and
 * one suggestion is made, from the first unsafe audit of it.
 */
static const struct bino_audit_target *
suggest_source(const struct bino_audit *audit, size_t index)
{
	const struct bino_audit_target *target = bino_audit_get(audit, index);
	const char *path = bino_audit_target_path(target);
	size_t j;

	for (j = 0; j < index; j++) {
		if (strcmp(bino_audit_target_path(bino_audit_get(audit, j)),
			   path) == 0)
			return NULL;
	}
	for (j = index; j < bino_audit_count(audit); j++) {
		const struct bino_audit_target *other = bino_audit_get(audit, j);

		if (strcmp(bino_audit_target_path(other), path) == 0 &&
		    !bino_audit_target_error(other) && audit_target_unsafe(other))
			return other;
	}
	return target;
}

/* One path as text, after a blank line unless it is the first output. */
static void suggest_text(const struct suggest_options *opts,
			 const struct suggest_config *config,
			 const struct bino_audit_target *target,
			 struct suggest_summary *summary)
{
	char *text = NULL;
	size_t len = 0;
	bool needed; /* the text says it: a safe path gets its one-line note */
	FILE *stream = open_memstream(&text, &len);

	if (!stream) {
		diag_no_memory();
		summary->failed = true;
		return;
	}
	if (suggestion_write(config, target, opts->block, stream, &needed) == 0)
		summary->audited++;
	else
		summary->path_errors++;
	if (fclose(stream) != 0) {
		diag_no_memory(); /* a memory stream's only failure */
		summary->failed = true;
	} else if (len) {
		if (!summary->first)
			putchar('\n');
		fwrite(text, 1, len, stdout);
		summary->first = false;
	}
	free(text);
}

/* The full report's line for a path in the tree of @covering. */
static void suggest_covered_note(const struct bino_audit_target *target,
				 const struct bino_audit_target *covering,
				 struct suggest_summary *summary)
{
	if (!summary->first)
		putchar('\n');
	fputs("# ", stdout);
	quote_comment(stdout, bino_audit_target_path(target));
	fputs(": in the tree of ", stdout);
	quote_comment(stdout, bino_audit_target_path(covering));
	fputs(" on the same filesystem: its blocks name it.\n", stdout);
	summary->first = false;
}

static void suggest_json(struct output *out,
			 const struct suggest_config *config,
			 const struct bino_audit_target *target,
			 struct suggest_summary *summary)
{
	if (suggestion_json(out, NULL, config, target) != 0)
		summary->path_errors++;
	else
		summary->audited++;
}

/*
 * --diff: the diffs to stdout, and in *@changes whether there were any
 * (diff(1)'s exit status 1), so that "nothing left to change" is an empty
 * output and status 0 that patch and scripts can trust.  0, or -1 with
 * the reason on stderr.
 */
static int write_diff(struct suggest_diff *diff, enum suggest_block block,
		      bool *changes)
{
	char *text = NULL;
	size_t len = 0;
	FILE *stream = open_memstream(&text, &len);
	int rc;

	if (!stream) {
		diag_no_memory();
		return -1;
	}
	rc = suggest_diff_write(diff, block, stream);
	if (fclose(stream) != 0 && rc == 0) {
		diag_no_memory(); /* a memory stream's only failure */
		rc = -1;
	}
	*changes = rc == 0 && len > 0;
	if (*changes)
		fwrite(text, 1, len, stdout);
	free(text);
	return rc;
}

/* What one run of suggest holds. */
struct suggest_run {
	struct suggest_options opts;
	struct suggest_config config;
	struct audit_session session;
	struct server_fstab fstab; /* read when given, or the system's */
	struct suggest_summary summary;
	struct output *out; /* JSON only */
	struct suggest_diff *diff; /* --diff only */
	int units_fd; /* --output-dir, else -1 */
	size_t exports_errors;
};

/* Audit @paths (none: every export): 0, or -1 with the reason said. */
static int suggest_audit(struct suggest_run *run, char **paths,
			 size_t n_paths)
{
	struct audit_request request;

	memset(&request, 0, sizeof(request));
	request.exports_file = run->opts.exports_file;
	request.mountinfo_file = run->opts.mountinfo_file;
	request.quiet = run->opts.quiet;
	request.paths = paths;
	request.n_paths = n_paths;
	/*
	 * No export is said in suggest_end(), after the exports files'
	 * warnings (a line whose path is not absolute) and, with --json, in a
	 * document as audit --json prints one.
	 */
	request.no_exports_is_a_result = true;
	if (audit_session_run(&request, &run->session) != AUDIT_SESSION_RAN)
		return -1;
	/* The system's fstab, as audit reads it: not offline, unless --diff changes it. */
	if (!run->opts.fstab_file &&
	    (run->opts.diff ||
	     (!run->opts.exports_file && !run->opts.mountinfo_file)))
		run->opts.fstab_file = SYSTEM_FSTAB;
	if (run->opts.fstab_file &&
	    server_fstab_read(&run->fstab, run->opts.fstab_file,
			      &run->session) != 0)
		return -1;
	run->config = (struct suggest_config){
		.exports = run->session.exports,
		.mounts = run->session.mounts,
		.server = run->opts.client.server,
		.client_dir = run->opts.client.client_dir,
		.exports_file = run->opts.exports_file,
		.fstab = run->opts.fstab_file ? &run->fstab : NULL,
	};
	return 0;
}

/*
 * Start the output with the exports file's errors and warnings: in JSON in
 * the document; in text on stderr, first, in their own output, as stdout
 * is what is pasted into a file or fed to patch.  0, or -1 (said).
 */
static int suggest_run_begin(struct suggest_run *run)
{
	const struct suggest_options *opts = &run->opts;
	struct output *out;

	if (opts->diff) {
		run->diff = suggest_diff_create();
		if (!run->diff) {
			diag_no_memory();
			return -1;
		}
	}
	out = opts->format == OUTPUT_JSON ? output_create(OUTPUT_JSON, stdout) :
					    output_create(OUTPUT_TEXT, stderr);
	if (!out) {
		diag_no_memory();
		return -1;
	}
	output_begin(out);
	print_u64(out, PRINT_JSON, "version", NULL, SUGGEST_SCHEMA_VERSION);
	run->exports_errors = print_exports_problems(out, run->session.exports);
	if (opts->format == OUTPUT_JSON) {
		output_open_array(out, "exports");
		run->out = out;
	} else {
		/* Not output_end(): no newline after the text (stdout is checked below). */
		output_destroy(out);
	}
	return 0;
}

/*
 * Each audited target's suggestions, in the format asked, and its units
 * with --output-dir.  0, or -1 when writing the units failed (said).
 */
static int suggest_targets(struct suggest_run *run)
{
	const struct bino_audit *audit = run->session.audit;
	size_t i;

	for (i = 0; i < bino_audit_count(audit); i++) {
		const struct bino_audit_target *target = suggest_source(audit, i);
		const struct bino_audit_target *covering;

		if (!target)
			continue;
		covering = suggestion_covering(audit, target);
		if (covering) {
			if (!run->diff && !run->out && run->opts.block == SUGGEST_ALL)
				suggest_covered_note(target, covering, &run->summary);
			run->summary.audited++;
			continue;
		}
		if (run->opts.output_dir && !bino_audit_target_error(target) &&
		    audit_target_unsafe(target) &&
		    suggest_write_units(&run->config, target, run->units_fd,
					run->opts.output_dir,
					!run->opts.quiet) != 0)
			return -1;
		if (run->diff) {
			if (suggest_diff_add(run->diff, &run->config, target) == 0)
				run->summary.audited++;
			else
				run->summary.path_errors++;
		} else if (run->out) {
			suggest_json(run->out, &run->config, target,
				     &run->summary);
		} else {
			suggest_text(&run->opts, &run->config, target,
				     &run->summary);
		}
	}
	return 0;
}

/*
 * End the output: the exit status, EXIT_FINDINGS when something is to be
 * changed (a diff that is not empty, errors in the exports file).
 */
static int suggest_end(struct suggest_run *run)
{
	bool changes = false;

	if (run->out) {
		output_close(run->out);
		if (output_end(run->out) != 0) {
			diag_output_error(errno);
			return EXIT_USAGE;
		}
	}
	if (run->diff && write_diff(run->diff, run->opts.block, &changes) != 0)
		run->summary.failed = true;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		diag_output_error(errno);
		return EXIT_USAGE;
	}
	if (bino_audit_count(run->session.audit) == 0)
		diag_message("nothing to suggest for: no exports; name a PATH");
	if (!run->summary.audited || run->summary.failed)
		return EXIT_USAGE;
	return changes || run->exports_errors || run->summary.path_errors ?
		       EXIT_FINDINGS : EXIT_CLEAN;
}

int cmd_suggest(int argc, char **argv)
{
	struct suggest_run run = { .summary = { .first = true }, .units_fd = -1 };
	int ret;

	ret = parse_suggest_options(argc, argv, &run.opts);
	if (ret != OPTIONS_GO_ON)
		return options_exit_status(ret);
	/*
	 * Root installs what is written there: only a directory no one else
	 * can change will do, made now so that a bad one fails before the audit.
	 */
	if (run.opts.output_dir) {
		run.units_fd = safe_dir_open(run.opts.output_dir,
					     SAFE_DIR_MAKE_PARENTS |
						     SAFE_DIR_OURS_ONLY);
		if (run.units_fd < 0)
			return EXIT_USAGE;
	}
	ret = EXIT_USAGE;
	if (suggest_audit(&run, argv + optind, (size_t)(argc - optind)) == 0 &&
	    suggest_run_begin(&run) == 0 && suggest_targets(&run) == 0)
		ret = suggest_end(&run);
	suggest_diff_destroy(run.diff);
	output_destroy(run.out);
	server_fstab_free(&run.fstab);
	audit_session_release(&run.session);
	if (run.units_fd >= 0)
		close(run.units_fd);
	return ret;
}
