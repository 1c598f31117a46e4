/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino: the command table and the options common to all commands.
 * Each command lives in its own cmd_*.c and uses the public API only.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btrfsino.h"
#include "cli.h"
#include "commands.h"
#include "diag.h"

static const struct command commands[] = {
	{ "walk", "list entries with their true identity", cmd_walk, usage_walk },
	{ "audit", "what NFS clients see and which tools break", cmd_audit, usage_audit },
	{ "suggest", "server and client configuration that makes exports safe", cmd_suggest, usage_suggest },
	{ "mount", "mount the subvolumes below exports on their own paths", cmd_mount, usage_mount },
	{ "exec", "run a command that sees NFS-served subvolumes apart", cmd_exec, usage_exec },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage_main(FILE *stream)
{
	size_t i;

	fprintf(stream,
		"Usage: %s COMMAND [OPTION]... [ARG]...\n"
		"Walk and audit btrfs trees, locally or over NFS, by true inode identity\n"
		"(device, subvolume, inode).\n\n"
		"Commands:\n",
		PROGRAM_NAME);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(stream, "  %-10s %s\n", commands[i].name,
			commands[i].summary);
	fprintf(stream,
		"  %-10s %s\n\n"
		"Options:\n"
		"  -h, --help     show this help and exit\n"
		"  -V, --version  show the version and exit\n\n"
		"'%s help COMMAND' and '%s COMMAND --help' describe a command.\n"
		"See btrfs-ino(1).\n",
		"help", "describe a command", PROGRAM_NAME, PROGRAM_NAME);
}

static const struct command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < N_COMMANDS; i++) {
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	}
	return NULL;
}

/* "unknown command", and the nearest commands (at most 2 edits) as git does. */
static int unknown_command(const char *name)
{
	size_t i, best = 3;

	diag_message("unknown command '%s'", name);
	for (i = 0; i < N_COMMANDS; i++) {
		size_t d = edit_distance(name, commands[i].name);

		if (d < best)
			best = d;
	}
	for (i = 0; best <= 2 && i < N_COMMANDS; i++) {
		if (edit_distance(name, commands[i].name) == best)
			diag_hint("Did you mean '%s %s'?", PROGRAM_NAME,
				  commands[i].name);
	}
	return usage_try(NULL);
}

static int cmd_help(int argc, char **argv)
{
	const struct command *command;

	if (argc < 2) {
		usage_main(stdout);
		return stdout_done();
	}
	command = find_command(argv[1]);
	if (!command)
		return unknown_command(argv[1]);
	command->usage(stdout);
	return stdout_done();
}

/* main()'s own options, before the command: an option parser (cli.h). */
static int main_option(int opt, const char *arg, void *opts)
{
	switch (opt) {
	case 'h':
		usage_main(stdout);
		return OPTIONS_HELP_SHOWN;
	case 'V':
		/* The version built against, and the one loaded. */
		printf("%s %s (libbtrfsino %s)\n", PROGRAM_NAME,
		       BINO_VERSION_STRING, bino_version());
		return OPTIONS_HELP_SHOWN; /* printed: end as after --help */
	default:
		/* getopt said what was wrong, as util-linux tools do. */
		return usage_try(NULL);
	}
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	/* '+': stop at the command name: its options are its own. */
	static const struct option_parser parser = { "+hV", options, main_option };
	const struct command *command;
	int ret, first;

	/* getopt names the program after argv[0]: not the install path. */
	argv[0] = (char *)PROGRAM_NAME;
	ret = options_parse(&parser, argc, argv, NULL);
	if (ret != OPTIONS_GO_ON)
		return options_exit_status(ret);
	if (optind >= argc)
		return usage_error(NULL, "no command given");
	if (strcmp(argv[optind], "help") == 0)
		return cmd_help(argc - optind, argv + optind);
	command = find_command(argv[optind]);
	if (!command)
		return unknown_command(argv[optind]);
	first = optind;
	argv[first] = (char *)PROGRAM_NAME; /* getopt's messages, as above */
	optind = 0; /* restart getopt for the command's own options */
	return command->run(argc - first, argv + first);
}
