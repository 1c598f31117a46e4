/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The usage-error and --help endings every command shares (cli.h), in the
 * bottom layer so that an option parser in any layer can use them.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

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

int options_parse(const struct option_parser *parser, int argc, char **argv,
		  void *opts)
{
	int opt, ret;

	while ((opt = getopt_long(argc, argv, parser->short_opts,
				  parser->long_opts, NULL)) != -1) {
		ret = parser->take(opt, optarg, opts);
		if (ret != OPTIONS_GO_ON)
			return ret;
	}
	return OPTIONS_GO_ON;
}
