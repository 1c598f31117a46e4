/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every layer of the CLI shares: its error rule, the exit statuses,
 * the program's name and the usage-error helpers (usage.c).  The
 * commands' entry points are in commands.h, above every layer.
 *
 * THE ERROR RULE, kept by every file of cli/:
 *
 * 1. How a function says it failed.
 *    - A command (cmd_*(), and main() for its own options) returns its exit
 *      status: one of the enum below (exec alone adds 126, 127 and its
 *      COMMAND's own status).
 *    - An option parser (parse_*_options(), options_parse() and the
 *      handler of a struct option_parser, and what parses one option or
 *      its argument: option_int(), *_parse_columns(),
 *      suggest_config_option()) returns OPTIONS_GO_ON, OPTIONS_HELP_SHOWN
 *      (--help was printed: a whole command's parser only), or EXIT_USAGE
 *      once it said why (usage_error(), usage_try()).  The command returns
 *      options_exit_status() of anything but OPTIONS_GO_ON.
 *    - Any other function that can fail returns 0 or -1; a count, the
 *      count or -1; a pointer, NULL.  Its comment says which of two things
 *      it does on failure: "with the reason on stderr" (it said why) or
 *      "with errno set" (its caller says why).  More outcomes than success
 *      and failure are an enum that names each (enum audit_session_end),
 *      never a bare 1/0/-1; a bool answers a question, it never means
 *      "failed".
 *    - The library's model is kept as it is: a call returns enum
 *      bino_error with errno set for the cause, and a helper wrapping one
 *      call may return that enum unchanged.  No result of the library is
 *      ignored.
 *
 * 2. Who prints the message: once, whoever knows why.
 *    - A helper whose comment says "with the reason on stderr" said it;
 *      its callers add no line of their own about that failure.  Else the
 *      caller that decides what happens next says it (at last, the
 *      command).  A bad option is getopt's message and usage_try()'s line,
 *      nothing more.
 *    - errno is read right after the call that set it, into a local
 *      (int errnum = errno) when anything runs before it is used: a diag_*()
 *      or status line, fflush(), free() and close() may all change it.
 *    - Words come from diag.h: diag_error() for the library's errors on a
 *      path, diag_no_memory(), diag_write_error(), diag_output_error().
 *    - An error on one entry or one PATH is said where it is met, and the
 *      run goes on (exit status 1).
 *    - Writes to stdout are not checked one by one: the command checks
 *      fflush(stdout) and ferror(stdout) once, at the end.
 *
 * 3. How the exit status is chosen: by the command alone (cmd_*.c), from
 *    what its helpers returned, when the run ends: EXIT_USAGE for a usage
 *    error or when nothing could be done (no PATH usable, a failure that
 *    stopped the run: memory, a table that cannot be read, an output that
 *    cannot be written); else EXIT_FINDINGS when something was found or
 *    some entries or PATHs could not be read; else EXIT_CLEAN.  After
 *    --help or --version, stdout_done().
 */
#ifndef BTRFS_INO_CLI_H
#define BTRFS_INO_CLI_H

#include <stdio.h>

/* Exit statuses, as documented in btrfs-ino(1). */
enum {
	EXIT_CLEAN = 0, /* everything walked, nothing found */
	EXIT_FINDINGS = 1, /* findings, or entries that could not be read */
	EXIT_USAGE = 2, /* usage error, or nothing could be done */
};

#define PROGRAM_NAME "btrfs-ino"

/*
 * After getopt reported a bad option: "Try 'btrfs-ino CMD --help' for more
 * information." on stderr; returns EXIT_USAGE.
 */
int usage_try(const char *command);

/*
 * Flush stdout after --help or --version: on a write error report it and
 * return 1 (util-linux's close_stdout), else EXIT_CLEAN.
 */
int stdout_done(void);

/* What an option parser returns besides EXIT_USAGE (the rule above). */
enum {
	OPTIONS_GO_ON = 0, /* run the command */
	OPTIONS_HELP_SHOWN = -2, /* --help was printed: end with stdout_done() */
};

/*
 * The exit status of a command whose option parser returned @parsed (not
 * OPTIONS_GO_ON): stdout_done() after --help, else @parsed.
 */
int options_exit_status(int parsed);

struct option;

/* A command's options: what getopt_long() reads, and what takes each. */
struct option_parser {
	const char *short_opts;
	const struct option *long_opts;
	/* Take @opt (with @arg, or NULL) into @opts: an option parser. */
	int (*take)(int opt, const char *arg, void *opts);
};

/*
 * Read the options of @argv with @parser, each into @opts, up to the first
 * result of @parser->take that is not OPTIONS_GO_ON, which it returns (an
 * option parser); optind is then at the first operand.  An unrecognized
 * long option gets "Did you mean '--NAME'?" after getopt's message, before
 * @parser->take is given the '?'.
 */
int options_parse(const struct option_parser *parser, int argc, char **argv,
		  void *opts);

/*
 * Edits from @a to @b (insert, delete, substitute, swap two neighbours: the
 * optimal string alignment distance git's "did you mean" uses); SIZE_MAX
 * past 31 characters.  For the "Did you mean" of commands and options.
 */
size_t edit_distance(const char *a, const char *b);

/* "btrfs-ino: MESSAGE" and the usage_try() line; returns EXIT_USAGE. */
int usage_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * @arg, the argument of @option ("--threads") of @command, as a whole
 * decimal number from @min to @max (at most INT_MAX) into *@value; else
 * "invalid --threads 'ARG'" as usage_error() says it.  OPTIONS_GO_ON or
 * EXIT_USAGE.  Checked as a long: "4294967297" does not wrap to 1.
 */
int option_int(const char *command, const char *option, const char *arg,
	       long min, long max, int *value);

#endif
