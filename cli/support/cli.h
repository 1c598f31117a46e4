/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What every layer of the CLI shares: the exit statuses, the program's
 * name and the usage-error helpers (usage.c).  The commands' entry points
 * are in commands.h, above every layer.
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

/*
 * What a command's option parser returns when it printed --help: the command
 * ends with stdout_done().  Besides it a parser returns 0 (go on) or an exit
 * status; it is not -1, which the commands' writers return for a failed
 * write.
 */
#define OPTIONS_HELP_SHOWN (-2)

/* "btrfs-ino: MESSAGE" and the usage_try() line; returns EXIT_USAGE. */
int usage_error(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
