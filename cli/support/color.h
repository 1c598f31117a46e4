/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Whether to colour the output: --color, NO_COLOR, terminal-colors.d. */
#ifndef BTRFS_INO_COLOR_H
#define BTRFS_INO_COLOR_H

#include <stdbool.h>

enum color_when {
	COLOR_AUTO, /* on a terminal, unless NO_COLOR or a .disable file */
	COLOR_ALWAYS,
	COLOR_NEVER,
};

/*
 * Parse --color's argument (NULL: "always", as util-linux reads it) of
 * @command into *@when: an option parser (cli.h).  Returns OPTIONS_GO_ON,
 * or EXIT_USAGE once it said "unknown --color 'WORD'" as usage_error().
 */
int color_parse_when(const char *command, const char *arg,
		     enum color_when *when);

/*
 * The decision, util-linux's way: never and always are final; auto colours
 * when stdout is a terminal, TERM is not "dumb", NO_COLOR is unset or empty,
 * and terminal-colors.d ($XDG_CONFIG_HOME or ~/.config, then /etc) holds no
 * "disable" or "btrfs-ino.disable" file, unless an ".enable" file of the same
 * directory and at least as specific a name overrides it.  Colour schemes
 * (.scheme files) are not read.
 */
bool color_wanted(enum color_when when);

#endif
