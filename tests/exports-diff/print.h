/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The line format both readers of the differential test print fields in. */
#ifndef EXPORTS_DIFF_PRINT_H
#define EXPORTS_DIFF_PRINT_H

#include <stdio.h>

/* @s with blanks, control bytes, non-ASCII bytes and backslashes as \ooo. */
static inline void put_field(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p <= 0x20 || *p >= 0x7f || *p == '\\')
			printf("\\%03o", *p);
		else
			putchar(*p);
	}
}

#endif
