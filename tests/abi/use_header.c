/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Includes the public header first and alone, as a user's program would. */
#include <btrfsino.h>

#include <stdio.h>

int main(void)
{
	struct bino_key a = { 1, 5, 256 }, b = { 1, 256, 256 };
	enum bino_error err = BINO_ERROR_STOP_ITERATION;

	printf("%s %d %d %d\n", bino_version(), bino_strerror(err)[0] != 0,
		    (int)bino_key_equal(&a, &a), (int)bino_key_equal(&a, &b));
	return 0;
}
