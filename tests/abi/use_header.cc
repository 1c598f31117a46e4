/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The public header from C++: it must compile and link with C linkage. */
#include <btrfsino.h>

#include <cstdio>

int main()
{
	bino_key a = { 1, 5, 256 }, b = { 1, 256, 256 };
	bino_error err = BINO_ERROR_STOP_ITERATION;

	std::printf("%s %d %d %d\n", bino_version(), bino_strerror(err)[0] != 0,
		    (int)bino_key_equal(&a, &a), (int)bino_key_equal(&a, &b));
	return 0;
}
