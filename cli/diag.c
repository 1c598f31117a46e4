/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* One line per diagnostic, whatever bytes the path holds. */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btrfs-ino.h"
#include "escape.h"

void diag_path(const char *path, const char *fmt, ...)
{
	char *escaped = text_escape(path, strlen(path));
	va_list args;

	fprintf(stderr, "%s: %s: ", PROGRAM_NAME, escaped ? escaped : path);
	free(escaped);
	va_start(args, fmt);
	vfprintf(stderr, fmt, args);
	va_end(args);
	fputc('\n', stderr);
}
