/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --server and --client-dir, checked and taken for suggest and audit --suggest. */
#include "suggest_options.h"

#include <string.h>

#include "cli.h"

/*
 * A host name goes into fstab and map fields: no blanks, no ':' or '/'.
 * OPTIONS_GO_ON, or EXIT_USAGE once usage_error() said why.
 */
static int set_server(struct suggest_config *config, const char *command,
		      const char *name)
{
	if (!*name || strpbrk(name, " \t\n:/"))
		return usage_error(command, "bad server name '%s'", name);
	config->server = name;
	return OPTIONS_GO_ON;
}

/* --client-dir: OPTIONS_GO_ON, or EXIT_USAGE once usage_error() said why. */
static int set_client_dir(struct suggest_config *config, const char *command,
			  const char *dir)
{
	if (dir[0] != '/')
		return usage_error(command, "--client-dir needs an absolute path");
	config->client_dir = dir;
	return OPTIONS_GO_ON;
}

int suggest_config_option(struct suggest_config *config, const char *command,
			  int opt, const char *arg)
{
	if (opt == SUGGEST_OPT_SERVER)
		return set_server(config, command, arg);
	return set_client_dir(config, command, arg);
}
