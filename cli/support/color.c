/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Whether to colour the output, decided as util-linux's tools decide it. */
#include "color.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

int color_parse_when(const char *command, const char *arg,
		     enum color_when *when)
{
	if (!arg || strcmp(arg, "always") == 0)
		*when = COLOR_ALWAYS;
	else if (strcmp(arg, "auto") == 0)
		*when = COLOR_AUTO;
	else if (strcmp(arg, "never") == 0)
		*when = COLOR_NEVER;
	else
		return usage_error(command, "unknown --color '%s'", arg);
	return OPTIONS_GO_ON;
}

static bool color_file(const char *dir, const char *name)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return false;
	return access(path, F_OK) == 0;
}

/* What a terminal-colors.d directory says. */
enum color_says {
	COLOR_SAYS_NOTHING,
	COLOR_SAYS_ENABLE,
	COLOR_SAYS_DISABLE,
};

/* The program's own file outranks the generic one (terminal-colors.d(5)). */
static enum color_says color_dir_says(const char *dir)
{
	if (color_file(dir, PROGRAM_NAME ".enable"))
		return COLOR_SAYS_ENABLE;
	if (color_file(dir, PROGRAM_NAME ".disable"))
		return COLOR_SAYS_DISABLE;
	if (color_file(dir, "enable"))
		return COLOR_SAYS_ENABLE;
	if (color_file(dir, "disable"))
		return COLOR_SAYS_DISABLE;
	return COLOR_SAYS_NOTHING;
}

bool color_wanted(enum color_when when)
{
	const char *no_color = getenv("NO_COLOR");
	const char *term = getenv("TERM");
	const char *config = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	char dir[PATH_MAX];
	enum color_says says = COLOR_SAYS_NOTHING;

	if (when != COLOR_AUTO)
		return when == COLOR_ALWAYS;
	if (no_color && *no_color)
		return false;
	if (!isatty(STDOUT_FILENO) || (term && strcmp(term, "dumb") == 0))
		return false;
	if (config && *config)
		snprintf(dir, sizeof(dir), "%s/terminal-colors.d", config);
	else if (home && *home)
		snprintf(dir, sizeof(dir), "%s/.config/terminal-colors.d", home);
	else
		dir[0] = '\0';
	if (dir[0])
		says = color_dir_says(dir);
	if (says == COLOR_SAYS_NOTHING)
		says = color_dir_says("/etc/terminal-colors.d");
	return says != COLOR_SAYS_DISABLE;
}
