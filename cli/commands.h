/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The commands main.c dispatches to, each in its own cmd_*.c. */
#ifndef BTRFS_INO_COMMANDS_H
#define BTRFS_INO_COMMANDS_H

#include <stdio.h>

struct command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	void (*usage)(FILE *stream);
};

int cmd_walk(int argc, char **argv);
void usage_walk(FILE *stream);
int cmd_audit(int argc, char **argv);
void usage_audit(FILE *stream);
int cmd_suggest(int argc, char **argv);
void usage_suggest(FILE *stream);
int cmd_mount(int argc, char **argv);
void usage_mount(FILE *stream);
int cmd_exec(int argc, char **argv);
void usage_exec(FILE *stream);

#endif
