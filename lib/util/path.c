/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Whether a path is at or below a directory, by path components. */
#include "path.h"

#include <string.h>

const char *bino__path_rest(const char *path, const char *dir)
{
	size_t len = strlen(dir);

	while (len > 0 && dir[len - 1] == '/')
		len--;
	if (strncmp(path, dir, len) != 0)
		return NULL;
	if (path[len] == '\0' || path[len] == '/')
		return path + len;
	return NULL;
}

bool bino__path_below(const char *path, const char *dir)
{
	const char *rest = bino__path_rest(path, dir);

	return rest && rest[strspn(rest, "/")] != '\0';
}
