/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Whether a path is at or below a directory: the one prefix test of the
 * library (mount points, exported paths, subvolumes), by path components,
 * so that "/ab" is not below "/a".
 */
#ifndef BINO_PATH_H
#define BINO_PATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The rest of the absolute @path below the absolute directory @dir: "" when
 * @path is @dir, else a pointer into @path at the '/' that follows @dir;
 * NULL when @path is neither @dir nor below it.  Trailing '/' of @dir are
 * not part of its name: below "/" (or "//") the rest is @path itself.
 * Paths are compared as written (resolve them first): "/a/./b" is not
 * below "/a/b".
 */
const char *bino__path_rest(const char *path, const char *dir);

/* Whether @path is @dir or below it. */
static inline bool bino__path_at_or_below(const char *path, const char *dir)
{
	return bino__path_rest(path, dir) != NULL;
}

/* Whether @path is strictly below @dir: its rest names something. */
bool bino__path_below(const char *path, const char *dir);

#endif
