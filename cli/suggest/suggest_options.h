/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The options suggest and audit --suggest share (--server, --client-dir):
 * one getopt_long table entry each and one place that checks and takes them.
 */
#ifndef BTRFS_INO_SUGGEST_OPTIONS_H
#define BTRFS_INO_SUGGEST_OPTIONS_H

#include <getopt.h>

#include "suggestion.h"

/* Their getopt_long codes, above those of every command's own options. */
enum {
	SUGGEST_OPT_SERVER = 0x1000,
	SUGGEST_OPT_CLIENT_DIR,
};

/* Their entries in a command's struct option table. */
#define SUGGEST_LONG_OPTIONS                                                \
	{ "server", required_argument, NULL, SUGGEST_OPT_SERVER },          \
	{ "client-dir", required_argument, NULL, SUGGEST_OPT_CLIENT_DIR }

/*
 * Take option @opt (SUGGEST_OPT_*) with argument @arg, given to @command
 * ("suggest", "audit"), into @config: 0, or a usage error's exit status
 * after saying why (a server name with a blank, ':' or '/', a relative
 * client directory).
 */
int suggest_config_option(struct suggest_config *config, const char *command,
			  int opt, const char *arg);

#endif
