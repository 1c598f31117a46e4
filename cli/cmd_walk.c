/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino walk: every entry with its true identity, as text, JSON Lines or
 * NUL-separated paths.  Loops and unreadable entries go to stderr (and, in
 * JSON, into the stream as "loop"/"error" records) and set exit status 1.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "btrfsino.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "escape.h"
#include "output.h"
#include "progress.h"
#include "walk_table.h"

/* Threads a walk of an NFS client mount uses at least, --threads aside. */
#define NFS_THREADS 8

struct walk_options {
	int flags;
	int max_depth;
	int threads;
	bool threads_given; /* --threads: else more threads on NFS */
	bool stat;
	bool print0;
	bool quiet;
	enum output_format format;
	bool table; /* -o, --list, --raw, --pairs or --noheadings */
	struct walk_table_options table_opts;
};

struct walk_result {
	bool problems; /* loops or unreadable entries */
	size_t usable_starts;
	uint64_t events; /* everything the walk returned */
	struct progress progress;
	struct walk_table *table; /* the table form, or NULL */
	/*
	 * 0, or why the output failed first: a row or record not made (no
	 * memory) or a table not printed; said once, at the end.
	 */
	int output_errno;
};

void usage_walk(FILE *stream)
{
	fprintf(stream,
		"Usage: %s walk [OPTION]... PATH...\n"
		"List every entry below each PATH with its true identity\n"
		"(device, subvolume ID, inode), one per line: DEV SUBVOLID INO PATH.\n\n"
		"Output:\n"
		"  -J, --json             JSON Lines: one object per entry, loop or error,\n"
		"                         streamed\n"
		"  -o, --output LIST      a table of these columns (see below; +LIST\n"
		"                         adds to the default ones)\n"
		"  -l, --list             a table with aligned columns (held to the end)\n"
		"  -r, --raw              a raw table: space-separated, escaped\n"
		"      --pairs            a table of NAME=\"value\" pairs (no -P: -P, -H\n"
		"                         and -L are find's, as below)\n"
		"  -n, --noheadings       a table without column headings\n"
		"      --stat             add mode, nlink, uid, gid, size, times, mount ID\n"
		"  -0, --print0           print only paths, each followed by NUL\n"
		"  -q, --quiet            do not report errors, loops or progress on stderr\n"
		"Walk:\n"
		"      --depth            list directories after their contents (find -depth)\n"
		"      --maxdepth N       descend at most N levels below PATH\n"
		"      --xdev             do not descend into other mounts\n"
		"      --same-subvol      do not descend into other subvolumes\n"
		"      --threads N        read directories on N-1 helper threads (same output)\n"
		"                         (default: the number of CPUs)\n"
		"  -P                     never follow symbolic links (default)\n"
		"  -H                     follow symbolic links given as PATH\n"
		"  -L                     follow all symbolic links\n"
		"Identity sources (for testing and old kernels):\n"
		"      --stat-all         stat every entry instead of trusting readdir\n"
		"      --no-statx-subvol  do not use statx STATX_SUBVOL\n"
		"      --no-subvol-ioctl  do not use the btrfs ioctl either\n"
		"  -h, --help             show this help and exit\n\n"
		"Columns (-o, default DEV,SUBVOLID,INO,PATH):\n",
		PROGRAM_NAME);
	walk_table_columns_help(stream);
	fprintf(stream,
		"\nExit status: 0 all walked, 1 loops or unreadable entries,\n"
		"2 usage error or no PATH usable.  See btrfs-ino(1).\n");
}

enum {
	OPT_STAT = 256,
	OPT_DEPTH,
	OPT_MAXDEPTH,
	OPT_XDEV,
	OPT_SAME_SUBVOL,
	OPT_STAT_ALL,
	OPT_NO_STATX_SUBVOL,
	OPT_NO_SUBVOL_IOCTL,
	OPT_THREADS,
	OPT_PAIRS,
};

static const struct option walk_long_options[] = {
	{ "json", no_argument, NULL, 'J' },
	{ "output", required_argument, NULL, 'o' },
	{ "list", no_argument, NULL, 'l' },
	{ "raw", no_argument, NULL, 'r' },
	{ "pairs", no_argument, NULL, OPT_PAIRS },
	{ "noheadings", no_argument, NULL, 'n' },
	{ "stat", no_argument, NULL, OPT_STAT },
	{ "print0", no_argument, NULL, '0' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "depth", no_argument, NULL, OPT_DEPTH },
	{ "maxdepth", required_argument, NULL, OPT_MAXDEPTH },
	{ "xdev", no_argument, NULL, OPT_XDEV },
	{ "same-subvol", no_argument, NULL, OPT_SAME_SUBVOL },
	{ "stat-all", no_argument, NULL, OPT_STAT_ALL },
	{ "no-statx-subvol", no_argument, NULL, OPT_NO_STATX_SUBVOL },
	{ "no-subvol-ioctl", no_argument, NULL, OPT_NO_SUBVOL_IOCTL },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* The options that only set and clear walk flags (enum bino_walk_flags). */
static const struct {
	int opt;
	int set, clear;
} walk_flag_options[] = {
	{ OPT_DEPTH, BINO_WALK_POST_ORDER, 0 },
	{ OPT_XDEV, BINO_WALK_XDEV, 0 },
	{ OPT_SAME_SUBVOL, BINO_WALK_SAME_SUBVOL, 0 },
	{ 'P', 0, BINO_WALK_FOLLOW_ARGS | BINO_WALK_FOLLOW_ALL },
	{ 'H', BINO_WALK_FOLLOW_ARGS, BINO_WALK_FOLLOW_ALL },
	{ 'L', BINO_WALK_FOLLOW_ALL, BINO_WALK_FOLLOW_ARGS },
	{ OPT_STAT_ALL, BINO_WALK_STAT_ALL, 0 },
	{ OPT_NO_STATX_SUBVOL, BINO_WALK_NO_STATX_SUBVOL, 0 },
	{ OPT_NO_SUBVOL_IOCTL, BINO_WALK_NO_SUBVOL_IOCTL, 0 },
};

/* @opt's walk flags into @opts, if it is one of walk_flag_options. */
static bool walk_flag_option(int opt, struct walk_options *opts)
{
	size_t i;

	for (i = 0; i < sizeof(walk_flag_options) / sizeof(walk_flag_options[0]); i++) {
		if (walk_flag_options[i].opt == opt) {
			opts->flags &= ~walk_flag_options[i].clear;
			opts->flags |= walk_flag_options[i].set;
			return true;
		}
	}
	return false;
}

/* -o, --list, --raw, --pairs, --noheadings: the table form. */
static int walk_table_option(int opt, const char *arg, struct walk_options *opts)
{
	int ret;

	switch (opt) {
	case 'o':
		ret = walk_table_parse_columns(arg, &opts->table_opts);
		if (ret)
			return ret;
		break;
	case 'l':
		opts->table_opts.mode = WALK_TABLE_LIST;
		break;
	case 'r':
		opts->table_opts.mode = WALK_TABLE_RAW;
		break;
	case OPT_PAIRS:
		opts->table_opts.mode = WALK_TABLE_PAIRS;
		break;
	case 'n':
		opts->table_opts.noheadings = true;
		break;
	}
	opts->table = true;
	return OPTIONS_GO_ON;
}

/* Take one option @opt (with @arg) into @data, the options: an option parser (cli.h). */
static int walk_option(int opt, const char *arg, void *data)
{
	struct walk_options *opts = data;

	if (walk_flag_option(opt, opts))
		return OPTIONS_GO_ON;
	switch (opt) {
	case 'J':
		opts->format = OUTPUT_JSON;
		return OPTIONS_GO_ON;
	case 'o': case 'l': case 'r': case OPT_PAIRS: case 'n':
		return walk_table_option(opt, arg, opts);
	case OPT_STAT:
		opts->stat = true;
		return OPTIONS_GO_ON;
	case '0':
		opts->print0 = true;
		return OPTIONS_GO_ON;
	case 'q':
		opts->quiet = true;
		return OPTIONS_GO_ON;
	case OPT_MAXDEPTH:
		return option_int("walk", "--maxdepth", arg, 0, INT_MAX,
				  &opts->max_depth);
	case OPT_THREADS:
		opts->threads_given = true;
		return option_int("walk", "--threads", arg, 1, 256,
				  &opts->threads);
	case 'h':
		usage_walk(stdout);
		return OPTIONS_HELP_SHOWN;
	default:
		return usage_try("walk");
	}
}

static const struct option_parser walk_parser = {
	"0qPHLhJo:lrn", walk_long_options, walk_option,
};

/* What the options ask together, and a PATH: an option parser (cli.h). */
static int walk_options_check(int argc, struct walk_options *opts)
{
	if (opts->print0 && opts->format == OUTPUT_JSON)
		return usage_error("walk", "--print0 and --json exclude each other");
	if (opts->table && (opts->print0 || opts->format == OUTPUT_JSON || opts->stat))
		return usage_error("walk", "a table (-o, --list, --raw, --pairs, "
				   "--noheadings) excludes --print0, --json and --stat");
	if (opts->table && walk_table_needs_stat(&opts->table_opts))
		opts->stat = true;
	if (optind >= argc)
		return usage_error("walk", "no PATH given");
	return OPTIONS_GO_ON;
}

/* walk's options into @opts: an option parser (cli.h). */
static int parse_walk_options(int argc, char **argv, struct walk_options *opts)
{
	int ret;

	memset(opts, 0, sizeof(*opts));
	opts->max_depth = -1;
	opts->threads = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (opts->threads < 1)
		opts->threads = 1;
	opts->format = OUTPUT_TEXT;
	ret = options_parse(&walk_parser, argc, argv, opts);
	if (ret != OPTIONS_GO_ON)
		return ret;
	return walk_options_check(argc, opts);
}

/* A loop or an unreadable entry: exit status 1, said on a clear line. */
static void walk_problem(struct walk_result *result)
{
	result->problems = true;
	progress_clear(&result->progress);
}

/*
 * In JSON, begin the record of @event ("error", "loop") at @entry; false in
 * text, where problems are on stderr only.
 */
static bool problem_record_begin(struct output *out, struct bino_entry *entry,
				 const char *event)
{
	if (output_format(out) != OUTPUT_JSON)
		return false;
	output_begin(out);
	print_string(out, PRINT_JSON, "event", NULL, event);
	print_path(out, PRINT_JSON, "path", NULL, bino_entry_path(entry),
		   bino_entry_path_length(entry));
	return true;
}

/* End a record; its failure (no memory: the record is lost) is the output's. */
static void walk_record_end(struct output *out, struct walk_result *result)
{
	if (output_end(out) != 0 && !result->output_errno)
		result->output_errno = errno;
}

/* An entry that could not be read: stderr, and a record in JSON. */
static void report_error(const struct walk_options *opts, struct output *out,
			 struct walk_result *result, struct bino_entry *entry,
			 enum bino_error step, int error_errno)
{
	walk_problem(result);
	if (!opts->quiet)
		diag_error(bino_entry_path(entry), step, error_errno);
	if (!problem_record_begin(out, entry, "error"))
		return;
	print_i64(out, PRINT_JSON, "errno", NULL, error_errno);
	print_string(out, PRINT_JSON, "error", NULL, strerror(error_errno));
	print_string(out, PRINT_JSON, "step", NULL, error_step(step));
	walk_record_end(out, result);
}

/* A directory that is its own ancestor: stderr, and a record in JSON. */
static void report_loop(const struct walk_options *opts, struct output *out,
			struct walk_result *result, struct bino_entry *entry)
{
	const char *ancestor = bino_entry_loop_ancestor(entry);
	struct bino_key key = bino_entry_key(entry);

	walk_problem(result);
	if (!ancestor)
		ancestor = "?";
	if (!opts->quiet) {
		char *escaped = text_escape(ancestor, strlen(ancestor));

		/* Never the name unescaped: it may hold a newline. */
		if (escaped)
			diag_path(bino_entry_path(entry),
				  "File system loop detected: the same directory as its ancestor '%s', not entered",
				  escaped);
		else if (!result->output_errno)
			result->output_errno = ENOMEM;
		free(escaped);
	}
	if (!problem_record_begin(out, entry, "loop"))
		return;
	print_path(out, PRINT_JSON, "ancestor", NULL, ancestor, strlen(ancestor));
	print_dev(out, PRINT_JSON, "dev", NULL, key.dev);
	print_u64(out, PRINT_JSON, "subvolid", NULL, key.subvolid);
	print_u64(out, PRINT_JSON, "ino", NULL, key.ino);
	walk_record_end(out, result);
}

static void print_timestamp(struct output *out, const char *key,
			    const struct bino_timestamp *ts)
{
	char nsec_key[32];

	print_i64(out, PRINT_JSON, key, NULL, ts->sec);
	snprintf(nsec_key, sizeof(nsec_key), "%s_nsec", key);
	print_u64(out, PRINT_JSON, nsec_key, NULL, ts->nsec);
}

static void print_stat(struct output *out, const struct bino_stat *st)
{
	print_u64(out, PRINT_ANY, "mode", "%06" PRIo64 " ", st->mode);
	print_u64(out, PRINT_ANY, "nlink", "%" PRIu64 " ", st->nlink);
	print_u64(out, PRINT_ANY, "uid", "%" PRIu64 " ", st->uid);
	print_u64(out, PRINT_ANY, "gid", "%" PRIu64 " ", st->gid);
	print_u64(out, PRINT_ANY, "size", "%" PRIu64 " ", st->size);
	print_i64(out, PRINT_TEXT, NULL, "%" PRId64 " ", st->mtime.sec);
	print_timestamp(out, "atime", &st->atime);
	print_timestamp(out, "mtime", &st->mtime);
	print_timestamp(out, "ctime", &st->ctime);
	if (st->has_btime)
		print_timestamp(out, "btime", &st->btime);
	print_u64(out, PRINT_JSON, "mnt_id", NULL, st->mnt_id);
}

static void print_entry(struct output *out, struct walk_result *result,
			struct bino_entry *entry, const struct bino_stat *st)
{
	struct bino_key key = bino_entry_key(entry);
	int flags = bino_entry_flags(entry);
	const struct bino_mount *mount = bino_entry_mount(entry);

	output_begin(out);
	print_string(out, PRINT_JSON, "event", NULL, "entry");
	print_dev(out, PRINT_ANY, "dev", "%s ", key.dev);
	print_u64(out, PRINT_ANY, "subvolid", "%" PRIu64 " ", key.subvolid);
	print_u64(out, PRINT_ANY, "ino", "%" PRIu64 " ", key.ino);
	if (st)
		print_stat(out, st);
	print_path(out, PRINT_ANY, "path", "%s", bino_entry_path(entry),
		   bino_entry_path_length(entry));
	print_i64(out, PRINT_JSON, "depth", NULL, bino_entry_depth(entry));
	print_string(out, PRINT_JSON, "type", NULL,
		     bino_type_name(bino_entry_type(entry)));
	print_bool(out, PRINT_JSON, "subvol_root", NULL,
		   flags & BINO_ENTRY_SUBVOL_ROOT);
	print_bool(out, PRINT_JSON, "mount_root", NULL,
		   flags & BINO_ENTRY_MOUNT_ROOT);
	if (flags & BINO_ENTRY_SUBVOL_PLACEHOLDER)
		print_bool(out, PRINT_JSON, "subvol_placeholder", NULL, true);
	print_string(out, PRINT_JSON, "source", NULL,
		     bino_source_name(bino_entry_source(entry)));
	if (flags & BINO_ENTRY_IDENTITY_UNCERTAIN) {
		print_bool(out, PRINT_JSON, "identity_uncertain", NULL, true);
		print_string(out, PRINT_JSON, "uncertain_reason", NULL,
			     strerror(bino_entry_errno(entry)));
	}
	print_string(out, PRINT_JSON, "fstype", NULL,
		     mount ? bino_mount_fstype(mount) : NULL);
	walk_record_end(out, result);
}

/* Whether this visit of the entry is the one that prints it. */
static bool visit_prints(const struct walk_options *opts,
			 struct bino_entry *entry)
{
	bool is_post = bino_entry_visit(entry) == BINO_VISIT_POST;

	if (bino_entry_type(entry) != BINO_TYPE_DIR ||
	    !(opts->flags & BINO_WALK_POST_ORDER))
		return !is_post;
	return is_post;
}

/*
 * How many threads to walk @paths with: --threads, else the CPUs, and on an
 * NFS client at least NFS_THREADS, as there every directory read waits on
 * a round trip and more reads in flight hide more of them.
 */
static int walk_threads(const struct walk_options *opts, char **paths,
			size_t n_paths)
{
	struct statfs sfs;
	size_t i;

	if (opts->threads_given || opts->threads >= NFS_THREADS)
		return opts->threads;
	for (i = 0; i < n_paths; i++) {
		if (statfs(paths[i], &sfs) == 0 && sfs.f_type == NFS_SUPER_MAGIC)
			return NFS_THREADS;
	}
	return opts->threads;
}

/*
 * A walk of @paths as @opts ask, into *@ret.  Returns 0, or -1 with the
 * reason on stderr.
 */
static int walk_start(const struct walk_options *opts, char **paths,
		      size_t n_paths, struct bino_walk **ret)
{
	struct bino_walk *walk;
	enum bino_error err;
	int errnum;

	/* --stat asks every entry's stat: the helpers make them. */
	err = bino_walk_create((const char *const *)paths, n_paths,
			       opts->flags |
				       (opts->stat ? BINO_WALK_STAT_AHEAD : 0),
			       &walk);
	if (err) {
		diag_message("%s: %s", bino_strerror(err), strerror(errno));
		return -1;
	}
	err = bino_walk_set_max_depth(walk, opts->max_depth);
	if (!err)
		err = bino_walk_set_threads(walk, walk_threads(opts, paths, n_paths));
	if (err) {
		errnum = errno;
		bino_walk_destroy(walk);
		diag_message("cannot set up the walk: %s: %s", bino_strerror(err),
			     strerror(errnum));
		return -1;
	}
	*ret = walk;
	return 0;
}

/* One entry of the walk out as @opts ask (an error record if its stat fails). */
static void walk_entry(const struct walk_options *opts, struct output *out,
		       struct walk_result *result, struct bino_entry *entry)
{
	struct bino_stat st;

	if (opts->stat) {
		enum bino_error stat_err = bino_entry_stat(entry, &st);

		if (stat_err) {
			/* Vanished since it was read: an error record. */
			report_error(opts, out, result, entry, stat_err, errno);
			return;
		}
	}
	if (opts->print0) {
		/* Checked with the rest of stdout, at the end (cli.h). */
		fwrite(bino_entry_path(entry), 1,
		       bino_entry_path_length(entry) + 1, stdout);
		return;
	}
	if (result->table) {
		/* None after a failure: each would print all again. */
		if (!result->output_errno &&
		    walk_table_add(result->table, entry,
				   opts->stat ? &st : NULL) != 0)
			result->output_errno = errno ? errno : EIO;
		return;
	}
	print_entry(out, result, entry, opts->stat ? &st : NULL);
}

/*
 * Walk @paths, each entry out as @opts ask.  Returns 0 when the walk went
 * to its end, else -1 with the reason on stderr.
 */
static int walk_paths(const struct walk_options *opts, char **paths,
		      size_t n_paths, struct output *out,
		      struct walk_result *result)
{
	struct bino_walk *walk;
	struct bino_entry *entry;
	enum bino_error err;
	int errnum;

	if (walk_start(opts, paths, n_paths, &walk) != 0)
		return -1;
	while ((err = bino_walk_next(walk, &entry)) == BINO_OK) {
		progress_update(&result->progress, ++result->events);
		if (bino_entry_depth(entry) == 0 &&
		    bino_entry_visit(entry) == BINO_VISIT_PRE &&
		    bino_entry_event(entry) != BINO_EVENT_ERROR)
			result->usable_starts++;
		switch (bino_entry_event(entry)) {
		case BINO_EVENT_ERROR:
			report_error(opts, out, result, entry,
				     bino_entry_error(entry),
				     bino_entry_errno(entry));
			continue;
		case BINO_EVENT_LOOP:
			report_loop(opts, out, result, entry);
			continue;
		case BINO_EVENT_ENTRY:
			break;
		}
		if (visit_prints(opts, entry))
			walk_entry(opts, out, result, entry);
	}
	errnum = errno;
	bino_walk_destroy(walk);
	progress_clear(&result->progress);
	if (err != BINO_ERROR_STOP_ITERATION) {
		diag_message("walk failed: %s: %s", bino_strerror(err),
			     strerror(errnum));
		return -1;
	}
	return 0;
}

/*
 * The exit status of a walk that went to its end or not (@walked), once
 * the output's failure, if any, is said: no memory for a row, or a write.
 */
static int walk_exit_status(const struct walk_result *result, bool walked)
{
	errno = 0; /* what ferror() finds may be an earlier write's, errno gone */
	if (result->output_errno || fflush(stdout) != 0 || ferror(stdout)) {
		diag_output_error(result->output_errno ? result->output_errno :
				  errno ? errno : EIO);
		return EXIT_USAGE;
	}
	if (!walked || result->usable_starts == 0)
		return EXIT_USAGE;
	return result->problems ? EXIT_FINDINGS : EXIT_CLEAN;
}

int cmd_walk(int argc, char **argv)
{
	struct walk_options opts;
	struct walk_result result = { 0 };
	struct output *out;
	bool walked;
	int ret;
	static char stdout_buffer[1 << 16];

	ret = parse_walk_options(argc, argv, &opts);
	if (ret != OPTIONS_GO_ON)
		return options_exit_status(ret);
	setvbuf(stdout, stdout_buffer, _IOFBF, sizeof(stdout_buffer));
	progress_init(&result.progress, "walk", !opts.quiet);
	out = output_create(opts.format, stdout);
	if (opts.table)
		result.table = walk_table_create(&opts.table_opts, stdout);
	if (!out || (opts.table && !result.table)) {
		diag_no_memory();
		output_destroy(out);
		return EXIT_USAGE;
	}
	walked = walk_paths(&opts, argv + optind, (size_t)(argc - optind), out,
			    &result) == 0;
	output_destroy(out);
	if (result.table && !result.output_errno &&
	    walk_table_finish(result.table) != 0)
		result.output_errno = errno ? errno : EIO;
	walk_table_destroy(result.table);
	return walk_exit_status(&result, walked);
}
