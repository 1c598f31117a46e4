/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino mount: make the server's mounts what NFS clients need, so that
 * NFS clients see each btrfs subvolume below an export as a filesystem of
 * its own: mount every subvolume that has no mount on its own path (the
 * server-fstab block's lines, from the same facts), unmount the mounts
 * below an export whose subvolume was deleted.  The library plans from the
 * btrfs subvolume tree and the mount table, never from the files
 * (bino_mountplan_add_subvols(): the cost grows with the subvolumes, so the
 * timer can run it every minute on a server of millions of files), and
 * acts (bino_mountplan_*); here are the checks, the words and the exit
 * status.  Meant to run by itself too (btrfs-ino-mount.service/.timer).
 *
 * Run by root every minute over directories users own, it must not fail
 * for everyone because of one user: what the policy skips (another user's
 * subvolumes over --max-user-mounts, with the subordinate uids of
 * /etc/subuid counted as their user, or over --max-total-user-mounts; a
 * path longer than PATH_MAX), a subvolume deleted between the plan and
 * its mount, and a step refused because its path no longer leads, beneath
 * the export and through no symbolic link, to what was planned (the user
 * changed it; the next run plans afresh) are told on stderr and leave the
 * exit status 0.  An /etc/subuid that exists and cannot be read makes it
 * 1 (each subordinate uid would count apart), the rest being done.
 * Only an action the system refused, or a path that could not be planned
 * (its subvolumes could not be listed), makes it 1.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "btrfsino.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"
#include "array.h"
#include "client_keeper.h"
#include "escape.h"
#include "mount_watch.h"
#include "report.h"
#include "audit_session.h"

/* What bino_mountplan_add_subid_file() reads by default. */
#define SUBUID_FILE "/etc/subuid"

struct mount_options {
	const char *exports_file;
	size_t max_user_mounts;
	size_t max_total_user_mounts;
	bool dry_run;
	bool quiet;
	bool watch;
	bool client; /* --client: the PATHs are a client's NFS mounts */
};

void usage_mount(FILE *stream)
{
	fprintf(stream,
		"Usage: %s mount [OPTION]... [PATH]...\n"
		"  or:  %s mount [--watch] --client DIR...\n"
		"Make the server's mounts what NFS clients need below each PATH (default:\n"
		"every path in the system's NFS exports): mount every btrfs subvolume below\n"
		"it that has no mount of its own on its own path (as 'suggest --format\n"
		"server-fstab' writes it), and unmount the mounts below it whose subvolume\n"
		"was deleted.  Each action is printed; a second run does nothing.  A PATH\n"
		"must be exported or below an export.  Needs root, except with --dry-run.\n"
		"The subvolumes come from the btrfs subvolume tree and the mount table:\n"
		"no file is read.  A user's --dry-run lists only what the user can reach.\n\n"
		"Options:\n"
		"  -f, --dry-run         print what would be done; change nothing (mount -f)\n"
		"      --exports FILE    use this exports(5) file instead of /etc/exports\n"
		"                        and /etc/exports.d/*.exports\n"
		"      --max-user-mounts N  mount at most N subvolumes of each owner other\n"
		"                        than root below each PATH (default %d); a user's\n"
		"                        subordinate uids (/etc/subuid) count as the user\n"
		"      --max-total-user-mounts N  mount at most N subvolumes of all owners\n"
		"                        but root together below each PATH (default %d)\n"
		"  -w, --watch           keep running: do it again within a second of any\n"
		"                        change (a subvolume created or deleted, a mount,\n"
		"                        the exports), until SIGTERM\n"
		"  -q, --quiet           no progress on stderr\n"
		"  -c, --client          on an NFS client: make each mount the server has\n"
		"                        below each DIR (its NFS mount of an export) a\n"
		"                        mount here before tools look, and unmount it\n"
		"                        once the server's is gone (with --watch: keep\n"
		"                        doing so)\n"
		"  -h, --help            show this help and exit\n\n"
		"Subvolumes the policy skips, and steps refused because their path changed\n"
		"since the plan, are told on stderr (--dry-run lists the skips, and each\n"
		"owner's mounts and all users' against the limits).\n"
		"Exit status: 0 done (or nothing to do, or only skips and refusals), 1 some\n"
		"mount or umount failed or some PATH could not be planned, 2 usage error, a\n"
		"PATH not exported (with --client: a DIR not on NFS), or not root.  With\n"
		"--watch: 0 when ended by SIGTERM or SIGINT, 2 if it cannot start.\n",
		PROGRAM_NAME, PROGRAM_NAME, BINO_MOUNTPLAN_DEFAULT_MAX_USER_MOUNTS,
		BINO_MOUNTPLAN_DEFAULT_MAX_TOTAL_USER_MOUNTS);
}

enum {
	OPT_EXPORTS = 256,
	OPT_MAX_USER_MOUNTS,
	OPT_MAX_TOTAL_USER_MOUNTS,
};

/*
 * A count option's value into *@ret: an option parser (cli.h),
 * OPTIONS_GO_ON or EXIT_USAGE.
 */
static int parse_count(const char *option, const char *text, size_t *ret)
{
	unsigned long long value;
	char *end;

	errno = 0;
	value = strtoull(text, &end, 10);
	if (errno || end == text || *end || text[0] == '-' || value > SIZE_MAX)
		return usage_error("mount", "%s: not a number: %s", option, text);
	*ret = (size_t)value;
	return OPTIONS_GO_ON;
}

static const struct option mount_long_options[] = {
	{ "dry-run", no_argument, NULL, 'f' },
	{ "exports", required_argument, NULL, OPT_EXPORTS },
	{ "max-user-mounts", required_argument, NULL, OPT_MAX_USER_MOUNTS },
	{ "max-total-user-mounts", required_argument, NULL,
	  OPT_MAX_TOTAL_USER_MOUNTS },
	{ "quiet", no_argument, NULL, 'q' },
	{ "watch", no_argument, NULL, 'w' },
	{ "client", no_argument, NULL, 'c' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Take one option @opt (with @arg) into @data, the options: an option parser (cli.h). */
static int mount_option(int opt, const char *arg, void *data)
{
	struct mount_options *opts = data;

	switch (opt) {
	case 'f':
		opts->dry_run = true;
		return OPTIONS_GO_ON;
	case OPT_EXPORTS:
		opts->exports_file = arg;
		return OPTIONS_GO_ON;
	case OPT_MAX_USER_MOUNTS:
		return parse_count("--max-user-mounts", arg,
				   &opts->max_user_mounts);
	case OPT_MAX_TOTAL_USER_MOUNTS:
		return parse_count("--max-total-user-mounts", arg,
				   &opts->max_total_user_mounts);
	case 'q':
		opts->quiet = true;
		return OPTIONS_GO_ON;
	case 'w':
		opts->watch = true;
		return OPTIONS_GO_ON;
	case 'c':
		opts->client = true;
		return OPTIONS_GO_ON;
	case 'h':
		usage_mount(stdout);
		return OPTIONS_HELP_SHOWN;
	default:
		/* getopt said what was wrong: the Try line only (cli.h). */
		return usage_try("mount");
	}
}

static const struct option_parser mount_parser = {
	"fqwch", mount_long_options, mount_option,
};

/* mount's options into @opts: an option parser (cli.h). */
static int parse_mount_options(int argc, char **argv, struct mount_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->max_user_mounts = BINO_MOUNTPLAN_DEFAULT_MAX_USER_MOUNTS;
	opts->max_total_user_mounts = BINO_MOUNTPLAN_DEFAULT_MAX_TOTAL_USER_MOUNTS;
	return options_parse(&mount_parser, argc, argv, opts);
}

/* A path for one line of text, escaped as walk and audit print paths. */
static void put_path(FILE *out, const char *path)
{
	char *escaped;

	if (!text_needs_escape(path, strlen(path))) {
		fputs(path, out);
		return;
	}
	escaped = text_escape(path, strlen(path));
	fputs(escaped ? escaped : path, out);
	free(escaped);
}

/*
 * A PATH as the exports have it (bino_exports_resolve()): the same export,
 * crossmnt and "below an export" rules as audit and suggest; no file read.
 */
struct mount_path {
	char *path; /* resolved; as given when that failed (@err) */
	const struct bino_export *export; /* NULL: not exported */
	int flags; /* enum bino_export_flags its clients get */
	enum bino_error err; /* why it could not be resolved, or BINO_OK */
	int errnum;
};

/* Whether @path is neither exported nor below an export. */
static bool unexported(const struct mount_path *path)
{
	return !path->err && !path->export;
}

/*
 * Say each PATH that is neither exported nor below an export: the command
 * only ever acts inside exported trees.  Whether there was one.
 */
static bool say_unexported(const struct mount_path *paths, size_t n_paths)
{
	bool found = false;
	size_t i;

	for (i = 0; i < n_paths; i++) {
		if (!unexported(&paths[i]))
			continue;
		diag_command_path("mount", paths[i].path,
				  "not exported nor below an export; refusing "
				  "to change mounts there");
		found = true;
	}
	return found;
}

/* Whether exportfs has @path, or a directory above it, exported now. */
static bool exported_now(const char *path)
{
	struct bino_exports *live;
	bool found = false;
	size_t i;

	if (access(LIVE_EXPORTS, R_OK) != 0 || bino_exports_create(&live) != BINO_OK)
		return false;
	if (bino_exports_add_file(live, LIVE_EXPORTS, NULL) == BINO_OK) {
		for (i = 0; !found && i < bino_exports_count(live); i++) {
			const char *dir = bino_export_path(bino_exports_get(live, i));
			size_t len = strlen(dir);

			found = strcmp(dir, "/") == 0 ||
				(strncmp(path, dir, len) == 0 &&
				 (path[len] == '/' || path[len] == '\0'));
		}
	}
	bino_exports_destroy(live);
	return found;
}

/* The tables a run reads, and the PATHs resolved against the exports. */
struct mount_tables {
	struct bino_exports *exports;
	struct bino_mounts *mounts;
	struct mount_path *paths; /* each resolved path once */
	size_t n_paths, cap_paths;
};

static void mount_tables_release(struct mount_tables *tables)
{
	size_t i;

	for (i = 0; i < tables->n_paths; i++)
		free(tables->paths[i].path);
	free(tables->paths);
	bino_mounts_destroy(tables->mounts);
	bino_exports_destroy(tables->exports);
	memset(tables, 0, sizeof(*tables));
}

/*
 * Add @given, resolved, to @tables unless it is there already.  0, or -1
 * with errno set (out of memory) or the library's error in *@err.
 */
static int mount_tables_add(struct mount_tables *tables, const char *given,
			    enum bino_error *err)
{
	struct mount_path item = { .err = BINO_OK };
	size_t i;

	item.err = bino_exports_resolve(tables->exports, tables->mounts, given,
					&item.path, &item.export, &item.flags);
	if (item.err == BINO_ERROR_STAT_FAILED) {
		/* Told, and watched all the same, when it is planned. */
		item.errnum = errno;
		item.path = strdup(given);
		if (!item.path)
			return -1;
	} else if (item.err) {
		*err = item.err;
		return -1;
	}
	for (i = 0; i < tables->n_paths; i++) {
		if (strcmp(tables->paths[i].path, item.path) == 0) {
			free(item.path);
			return 0;
		}
	}
	if (ARRAY_RESERVE(tables->paths, tables->cap_paths,
			  tables->n_paths + 1) != 0) {
		free(item.path);
		return -1;
	}
	tables->paths[tables->n_paths++] = item;
	return 0;
}

/* What mount_tables_read() found. */
enum mount_tables_end {
	MOUNT_TABLES_READ, /* the tables read, a PATH or more resolved */
	MOUNT_TABLES_NOTHING, /* nothing exported and no PATH named: said */
	MOUNT_TABLES_FAILED, /* the problem said on stderr */
};

/*
 * Read the exports and the mount table and resolve @paths (none: every
 * exported path).  @tables is released unless MOUNT_TABLES_READ.
 */
static enum mount_tables_end
mount_tables_read(const struct mount_options *opts, char *const *paths,
		  size_t n_paths, struct mount_tables *tables)
{
	enum bino_error err = BINO_OK;
	size_t i, n;

	memset(tables, 0, sizeof(*tables));
	if (read_exports(opts->exports_file, &tables->exports) != 0 ||
	    read_mounts(NULL, &tables->mounts) != 0)
		goto out_release;
	n = n_paths ? n_paths : bino_exports_count(tables->exports);
	for (i = 0; i < n; i++) {
		const char *given = n_paths ? paths[i] :
			bino_export_path(bino_exports_get(tables->exports, i));

		if (mount_tables_add(tables, given, &err) != 0) {
			if (err)
				diag_message("mount: %s: %s", bino_strerror(err),
					     strerror(errno));
			else
				diag_no_memory();
			goto out_release;
		}
	}
	if (tables->n_paths == 0) {
		/*
		 * Nothing exported is a state, not an error: the timer runs
		 * this every minute, and a server whose exports were emptied
		 * must not log a failed unit each time.
		 */
		if (!opts->quiet)
			diag_message("mount: no exports; nothing to do");
		mount_tables_release(tables);
		return MOUNT_TABLES_NOTHING;
	}
	return MOUNT_TABLES_READ;

out_release:
	mount_tables_release(tables);
	return MOUNT_TABLES_FAILED;
}

struct mount_run {
	const struct mount_options *opts;
	char *const *paths; /* the PATHs named (none: every export) */
	size_t n_paths;
	struct mount_tables tables;
	struct bino_mountplan *plan;
	struct mount_watch *watch; /* --watch: told each PATH before its plan */
	bool kept; /* --watch: a pass ran before this one */
	const char *export_path; /* the PATH being done */
	size_t skipped; /* skip steps below export_path */
	bool failed;
	bool noted; /* --watch: the notes after a mount were told once */
	bool quick; /* --watch: the steps are a quick pass's */
};

/* "skip PATH: why" for a skip step (on stdout: --dry-run lists them). */
static void print_skip(const struct mount_run *run,
		       const struct bino_mountplan_step *step)
{
	fputs("skip ", stdout);
	put_path(stdout, bino_mountplan_step_path(step));
	switch (bino_mountplan_step_skip(step)) {
	case BINO_MOUNTPLAN_SKIP_PATH_TOO_LONG:
		printf(": path longer than PATH_MAX (%d)\n", PATH_MAX);
		return;
	case BINO_MOUNTPLAN_SKIP_OVER_TOTAL:
		printf(": the owners other than root have reached "
		       "--max-total-user-mounts %zu below ",
		       run->opts->max_total_user_mounts);
		break;
	default:
		printf(": its owner, uid %" PRId64, bino_mountplan_step_owner(step));
		if (bino_mountplan_step_counted_as(step) !=
		    bino_mountplan_step_owner(step))
			printf(", counted as uid %" PRId64,
			       bino_mountplan_step_counted_as(step));
		printf(", has reached --max-user-mounts %zu below ",
		       run->opts->max_user_mounts);
		break;
	}
	put_path(stdout, run->export_path);
	putchar('\n');
}

/*
 * --dry-run: each owner's mounts below the PATH planned last against the
 * limit (subordinate uids counted as their user's), and all users' against
 * the cap: "count uid UID: N of --max-user-mounts M below PATH".  Nothing
 * where no user has a subvolume there, so that a run with nothing to do
 * on root's subvolumes prints nothing.
 */
static void print_counts(const struct mount_run *run)
{
	size_t i;

	if (bino_mountplan_owner_count(run->plan) == 0)
		return;
	for (i = 0; i < bino_mountplan_owner_count(run->plan); i++) {
		printf("count uid %" PRId64 ": %zu of --max-user-mounts %zu below ",
		       bino_mountplan_owner_uid(run->plan, i),
		       bino_mountplan_owner_mounts(run->plan, i),
		       run->opts->max_user_mounts);
		put_path(stdout, run->export_path);
		putchar('\n');
	}
	printf("count users: %zu of --max-total-user-mounts %zu below ",
	       bino_mountplan_user_mounts(run->plan),
	       run->opts->max_total_user_mounts);
	put_path(stdout, run->export_path);
	putchar('\n');
}

/*
 * Whether a step failed with BINO_ERROR_OPEN_FAILED and @saved_errno
 * because its path no longer leads to what was planned: a change users can
 * make, told as a refusal.  The phrase for it, or NULL.
 */
static const char *refusal(const struct bino_mountplan_step *step,
			   enum bino_error err, int saved_errno)
{
	if (err != BINO_ERROR_OPEN_FAILED)
		return NULL;
	switch (saved_errno) {
	case ENOENT:
		return "no longer there";
	case ELOOP:
	case ENOTDIR:
		return "a symbolic link (or not a directory) on the way from";
	case EXDEV:
		return "leads outside";
	case ENAMETOOLONG:
		return "a name too long on the way from";
	case EAGAIN: /* openat2: a rename raced the lookup */
		return "renamed while it was looked up from";
	case ESTALE:
		return bino_mountplan_step_action(step) == BINO_MOUNTPLAN_MOUNT ?
			"not the root of the subvolume planned (its inode, "
			"subvolume ID, filesystem UUID or owner differ), or a "
			"new directory replaced" :
			"another mount than the one planned, or a new "
			"directory replaced";
	default:
		return NULL;
	}
}

/*
 * "btrfs-ino: mount: PATH: refused: what differs [EXPORT]": a step whose
 * path no longer leads to what was planned, with the export it is below
 * unless the path is simply gone (@with_export false).
 */
static void say_refused(const struct mount_run *run, const char *path,
			const char *refused, bool with_export)
{
	const char *export = run->export_path;
	char *escaped = with_export ? text_escape(export, strlen(export)) : NULL;

	diag_command_path("mount", path, "refused: %s%s%s", refused,
			  with_export ? " " : "",
			  with_export ? (escaped ? escaped : export) : "");
	free(escaped);
}

/* Print a step, and carry it out unless --dry-run. */
static void run_step(struct mount_run *run, const struct bino_mountplan_step *step)
{
	const char *path = bino_mountplan_step_path(step);
	const char *refused;
	enum bino_error err;
	char uuid[37];
	int saved;

	switch (bino_mountplan_step_action(step)) {
	case BINO_MOUNTPLAN_MOUNT:
		format_uuid(uuid, bino_mountplan_step_fs_uuid(step));
		/* The keeper's log: a line of its own per event (stderr). */
		if (run->watch) {
			diag_command_path("mount", path, "mount UUID=%s subvolid=%"
					  PRIu64, uuid,
					  bino_mountplan_step_subvolid(step));
			break;
		}
		printf("mount UUID=%s subvolid=%" PRIu64 " on ", uuid,
		       bino_mountplan_step_subvolid(step));
		put_path(stdout, path);
		putchar('\n');
		break;
	case BINO_MOUNTPLAN_UMOUNT:
		if (run->watch) {
			diag_command_path("mount", path, "umount: subvolume %"
					  PRIu64 " no longer exists",
					  bino_mountplan_step_subvolid(step));
			break;
		}
		fputs("umount ", stdout);
		put_path(stdout, path);
		printf(": subvolume %" PRIu64 " no longer exists\n",
		       bino_mountplan_step_subvolid(step));
		break;
	case BINO_MOUNTPLAN_SKIP:
		run->skipped++;
		if (run->opts->dry_run)
			print_skip(run, step);
		return;
	}
	fflush(stdout);
	if (run->opts->dry_run)
		return;
	/* SIGTERM waits for the step: never half a mount. */
	if (run->watch)
		mount_watch_acting(run->watch, true);
	err = bino_mountplan_step_apply(step);
	if (run->watch)
		mount_watch_acting(run->watch, false);
	if (!err)
		return;
	if (err == BINO_ERROR_SUBVOL_DELETED) {
		diag_command_path("mount", path, "skipped: subvolume %" PRIu64
				  " was deleted since the plan",
				  bino_mountplan_step_subvolid(step));
		return;
	}
	saved = errno;
	refused = refusal(step, err, saved);
	if (refused) {
		say_refused(run, path, refused, saved != ENOENT);
		return;
	}
	diag_command_path("mount", path, "%s: %s", bino_strerror(err),
			  strerror(saved));
	run->failed = true;
}

/*
 * The notes after mounts below @target, for the one-shot command's output;
 * for the keeper's log, a line each, once in its life (they do not change).
 */
static void tell_notes(struct mount_run *run, const struct mount_path *target)
{
	const char *path = target->path;
	bool exported = exported_now(path);
	bool crossmnt = target->flags & (BINO_EXPORT_CROSSMNT | BINO_EXPORT_NOHIDE);

	if (run->watch) {
		if (exported && !run->noted)
			diag_command_path("mount", path, "note: exported now: NFS "
					  "clients cross into the new mounts when "
					  "they next look up their directories; "
					  "clients that listed them before may "
					  "need to remount to stop seeing the loop");
		if (!crossmnt && !run->noted)
			diag_command_path("mount", path, "note: the export has no "
					  "crossmnt: clients cross into the mounts "
					  "only with it (btrfs-ino suggest --format "
					  "exports)");
		run->noted = true;
		return;
	}
	if (exported) {
		fputs("note: ", stdout);
		put_path(stdout, path);
		fputs(" is exported now: NFS clients cross into the new mounts when\n"
		      "  they next look up their directories; clients that listed them "
		      "before\n  may need to remount to stop seeing the loop\n", stdout);
	}
	if (!crossmnt) {
		fputs("note: the export of ", stdout);
		put_path(stdout, path);
		fputs(" has no crossmnt: clients cross into the mounts only\n"
		      "  with it (btrfs-ino suggest --format exports)\n", stdout);
	}
}

/*
 * Carry out the steps from the @first'th, those planned for @target (a
 * full pass's counts after them unless @err, its planning's error).
 */
static void run_steps(struct mount_run *run, const struct mount_path *target,
		      size_t first, enum bino_error err)
{
	const char *path = target->path;
	bool mounted = false;
	size_t i;

	run->export_path = path;
	run->skipped = 0;
	for (i = first; i < bino_mountplan_count(run->plan); i++) {
		const struct bino_mountplan_step *step =
			bino_mountplan_get(run->plan, i);

		run_step(run, step);
		mounted |= bino_mountplan_step_action(step) == BINO_MOUNTPLAN_MOUNT;
	}
	if (!err && run->opts->dry_run)
		print_counts(run);
	/*
	 * A quick pass's skips are told by the next full pass, with the
	 * others: under a user's churn, a line a second otherwise.
	 */
	if (run->skipped && !run->opts->dry_run && !run->quick) {
		diag_command_path("mount", path,
				  "skipped %zu subvolume%s by the mount policy "
				  "(--dry-run lists them)",
				  run->skipped, run->skipped == 1 ? "" : "s");
	}
	if (mounted)
		tell_notes(run, target);
}

/* Plan and carry out what one PATH needs. */
static void mount_export(struct mount_run *run, const struct mount_path *target)
{
	const char *path = target->path;
	size_t first = bino_mountplan_count(run->plan);
	enum bino_error err;

	err = target->err;
	/* Watched even when absent: its filesystem may be mounted later. */
	if (run->watch)
		mount_watch_add(run->watch, path);
	if (!err) {
		err = bino_mountplan_add_stale(run->plan, run->tables.mounts, path);
		if (!err)
			err = bino_mountplan_add_subvols(run->plan,
							 run->tables.mounts, path);
	}
	if (err) {
		int saved = target->err ? target->errnum : errno;

		diag_command_path("mount", path, "%s: %s", bino_strerror(err),
				  strerror(saved));
		run->failed = true;
	}
	run_steps(run, target, first, err);
}

/* Plan and carry out what each PATH of the tables read needs. */
static int mount_apply(struct mount_run *run)
{
	enum bino_error err;
	size_t i;

	bino_mountplan_destroy(run->plan); /* --watch: the last full pass's */
	err = bino_mountplan_create(0, &run->plan);
	if (!err)
		err = bino_mountplan_set_max_user_mounts(run->plan,
							 run->opts->max_user_mounts);
	if (!err)
		err = bino_mountplan_set_max_total_user_mounts(
			run->plan, run->opts->max_total_user_mounts);
	if (err) {
		diag_message("mount: %s: %s", bino_strerror(err), strerror(errno));
		bino_mountplan_destroy(run->plan);
		run->plan = NULL;
		return EXIT_USAGE;
	}
	run->failed = false;
	/* Unread, each subordinate uid would count as an owner of its own. */
	err = bino_mountplan_add_subid_file(run->plan, NULL);
	if (err) {
		diag_command_path("mount", SUBUID_FILE, "%s: %s", bino_strerror(err),
				  strerror(errno));
		run->failed = true;
	}
	for (i = 0; i < run->tables.n_paths; i++) {
		if (!unexported(&run->tables.paths[i]))
			mount_export(run, &run->tables.paths[i]);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		diag_write_error(errno);
		run->failed = true;
	}
	if (run->watch && bino_mountplan_unreached(run->plan))
		mount_watch_look_again(run->watch);
	/* --watch: quick passes plan on with it. */
	if (!run->watch) {
		bino_mountplan_destroy(run->plan);
		run->plan = NULL;
	}
	return run->failed ? EXIT_FINDINGS : EXIT_CLEAN;
}

/*
 * --watch's quick pass: only the subvolumes @quick names, below its PATH,
 * planned on with the last full pass's plan (its owners' tallies), against
 * the mount table now.
 */
static int mount_quick(struct mount_run *run, const struct mount_quick *quick)
{
	const struct mount_path *target = NULL;
	struct bino_mounts *mounts;
	size_t first, unreached, i;
	enum bino_error err;

	for (i = 0; !target && i < run->tables.n_paths; i++) {
		if (strcmp(run->tables.paths[i].path, quick->path) == 0)
			target = &run->tables.paths[i];
	}
	if (!target || !run->plan || read_mounts(NULL, &mounts) != 0) {
		mount_watch_plan_whole(run->watch);
		return EXIT_CLEAN;
	}
	run->failed = false;
	first = bino_mountplan_count(run->plan);
	unreached = bino_mountplan_unreached(run->plan);
	err = bino_mountplan_add_subvol_ids(run->plan, mounts, quick->path,
					    quick->ids, quick->n);
	if (err == BINO_ERROR_NOT_FOUND) {
		mount_watch_plan_whole(run->watch);
	} else if (err) {
		diag_command_path("mount", quick->path, "%s: %s",
				  bino_strerror(err), strerror(errno));
		run->failed = true;
	}
	run->quick = true;
	run_steps(run, target, first, err);
	run->quick = false;
	if (bino_mountplan_unreached(run->plan) > unreached)
		mount_watch_look_again(run->watch);
	bino_mounts_destroy(mounts);
	return run->failed ? EXIT_FINDINGS : EXIT_CLEAN;
}

/*
 * One run: the tables read afresh, each PATH planned and carried out; or
 * --watch's quick pass.
 */
static int mount_pass(struct mount_watch *watch, const struct mount_quick *quick,
		      void *data)
{
	struct mount_run *run = data;
	bool later = run->kept;
	int ret;

	if (quick)
		return mount_quick(run, quick);
	mount_tables_release(&run->tables); /* --watch: the last full pass's */
	run->watch = watch;
	run->kept = watch != NULL;
	switch (mount_tables_read(run->opts, run->paths, run->n_paths,
				  &run->tables)) {
	case MOUNT_TABLES_NOTHING:
		return EXIT_CLEAN;
	case MOUNT_TABLES_FAILED:
		return EXIT_USAGE;
	case MOUNT_TABLES_READ:
		break;
	}
	/*
	 * Refused before anything is done, the first time; a later pass of
	 * --watch refuses only the PATHs no longer exported and keeps the
	 * others (a refused pass would watch none of them).
	 */
	ret = say_unexported(run->tables.paths, run->tables.n_paths) ?
		      EXIT_USAGE : EXIT_CLEAN;
	if (ret == EXIT_CLEAN || later) {
		int done = mount_apply(run);

		if (ret == EXIT_CLEAN)
			ret = done;
	}
	/* --watch: quick passes find their PATH in them. */
	if (!watch)
		mount_tables_release(&run->tables);
	return ret;
}

/*
 * --client: the client keeper over the DIRs @dirs (client_keeper.c), once
 * the options that belong to the server's side are refused.
 */
static int mount_client(const struct mount_options *opts, char *const *dirs,
			size_t n_dirs)
{
	struct client_options client = {
		.max_user_mounts = opts->max_user_mounts,
		.max_total_user_mounts = opts->max_total_user_mounts,
		.dry_run = opts->dry_run, .quiet = opts->quiet,
		.watch = opts->watch,
	};

	if (opts->exports_file)
		return usage_error("mount", "--client reads no exports: "
				   "--exports is the server's option");
	if (n_dirs == 0)
		return usage_error("mount", "--client needs a DIR: the "
				   "client's NFS mount of an export");
	if (opts->dry_run && opts->watch)
		return usage_error("mount", "--dry-run looks once: not with "
				   "--watch");
	return client_keeper_run(&client, dirs, n_dirs);
}

int cmd_mount(int argc, char **argv)
{
	struct mount_options opts;
	struct mount_run run = { .opts = &opts };
	struct mount_watch_config config;
	int ret;

	ret = parse_mount_options(argc, argv, &opts);
	if (ret != OPTIONS_GO_ON)
		return options_exit_status(ret);
	if (!opts.dry_run && geteuid() != 0) {
		diag_message("mount: only root can mount; --dry-run shows what "
			     "would be done");
		return EXIT_USAGE;
	}
	run.paths = argv + optind;
	run.n_paths = (size_t)(argc - optind);
	if (opts.client)
		return mount_client(&opts, run.paths, run.n_paths);
	if (!opts.watch)
		return mount_pass(NULL, NULL, &run);
	config = (struct mount_watch_config){
		.exports_file = opts.exports_file, .quiet = opts.quiet,
	};
	ret = mount_watch_run(&config, mount_pass, &run);
	mount_tables_release(&run.tables);
	bino_mountplan_destroy(run.plan);
	return ret;
}
