/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The usage-error and --help endings every command shares (cli.h), and the
 * one option loop with its "did you mean", in the bottom layer so that an
 * option parser in any layer can use them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"

int usage_try(const char *command)
{
	diag_hint("Try '%s%s%s --help' for more information.", PROGRAM_NAME,
		  command ? " " : "", command ? command : "");
	return EXIT_USAGE;
}

int stdout_done(void)
{
	/* util-linux's close_stdout(): a help nobody could read is a failure. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		diag_write_error(errno);
		return EXIT_FAILURE;
	}
	return EXIT_CLEAN;
}

int usage_error(const char *command, const char *fmt, ...)
{
	char *message = NULL;
	va_list args;
	int len;

	va_start(args, fmt);
	len = vasprintf(&message, fmt, args);
	va_end(args);
	if (len < 0)
		diag_no_memory();
	else
		diag_message("%s", message);
	free(message);
	return usage_try(command);
}

int options_exit_status(int parsed)
{
	return parsed == OPTIONS_HELP_SHOWN ? stdout_done() : parsed;
}

int option_int(const char *command, const char *option, const char *arg,
	       long min, long max, int *value)
{
	long number;
	char *end;

	errno = 0;
	number = strtol(arg, &end, 10);
	if (errno || *end || end == arg || number < min || number > max)
		return usage_error(command, "invalid %s '%s'", option, arg);
	*value = (int)number;
	return OPTIONS_GO_ON;
}

/*
 * Edits from @a to @b (insert, delete, substitute, swap two neighbours:
 * the optimal string alignment distance git's "did you mean" uses).
 */
size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t d[32][32];

	if (la > 31 || lb > 31)
		return SIZE_MAX; /* longer than any name: no suggestion */
	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/*
 * After getopt's "unrecognized option '--NAME'": "Did you mean '--OTHER'?"
 * for each long option of @longs at the fewest edits from NAME, at most 2
 * (as for commands).  Nothing when NAME starts a long option's name: getopt
 * then took it or listed the ambiguous ones itself.
 */
static void option_hint(const struct option *longs, const char *arg)
{
	char name[64];
	size_t i, d, best = 3;

	if (strncmp(arg, "--", 2) != 0)
		return;
	/* "--exprots=/etc/exports" is a mistyped --exports too. */
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
	for (i = 0; longs[i].name; i++) {
		if (strncmp(longs[i].name, name, strlen(name)) == 0)
			return;
		d = edit_distance(name, longs[i].name);
		if (d < best)
			best = d;
	}
	for (i = 0; best <= 2 && longs[i].name; i++) {
		if (edit_distance(name, longs[i].name) == best)
			diag_hint("Did you mean '--%s'?", longs[i].name);
	}
}

int options_parse(const struct option_parser *parser, int argc, char **argv,
		  void *opts)
{
	int opt, ret;

	while ((opt = getopt_long(argc, argv, parser->short_opts,
				  parser->long_opts, NULL)) != -1) {
		/* getopt said "unrecognized option" (optopt 0: not a short one). */
		if (opt == '?' && optopt == 0 && optind > 0)
			option_hint(parser->long_opts, argv[optind - 1]);
		ret = parser->take(opt, optarg, opts);
		if (ret != OPTIONS_GO_ON)
			return ret;
	}
	return OPTIONS_GO_ON;
}
