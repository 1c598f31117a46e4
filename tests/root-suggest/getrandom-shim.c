/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * LD_PRELOAD shim that makes the temporary names of cli/support/safe_file.c
 * predictable: getrandom() of 16 bytes (one temporary name's worth) fills
 * them with the number of such calls made before (0 for the first), so the
 * n-th name tried for a file is ".NAME." and 16 times the n-th character of
 * "A-Za-z0-9_-"; with GETRANDOM_SHIM_CONSTANT set, always 0 ("A" 16 times).
 * Calls of other lengths (library seeds) get zeros and are not counted.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
	static unsigned char calls;

	(void)flags;
	memset(buf, 0, len);
	if (len == 16 && !getenv("GETRANDOM_SHIM_CONSTANT"))
		memset(buf, calls++, len);
	return (ssize_t)len;
}
