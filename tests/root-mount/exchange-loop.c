/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper: swap two names with renameat2(RENAME_EXCHANGE) over and over,
 * as a user racing root's mount would swap a directory of theirs with a
 * symbolic link, until SIGTERM or SIGINT; then print how many swaps were
 * made, and leave the names as they were at the start (an even count).
 * With COUNT, make that many swaps and stop.
 * Usage: exchange-loop PATH1 PATH2 [COUNT]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static int exchange(const char *a, const char *b)
{
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0)
		return 0;
	fprintf(stderr, "exchange-loop: %s <-> %s: %s\n", a, b, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal };
	unsigned long swaps = 0, count;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: exchange-loop PATH1 PATH2 [COUNT]\n");
		return 2;
	}
	if (argc == 4) {
		for (count = strtoul(argv[3], NULL, 10); swaps < count; swaps++) {
			if (exchange(argv[1], argv[2]) != 0)
				return 1;
		}
		return 0;
	}
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	while (!stop) {
		if (exchange(argv[1], argv[2]) != 0)
			return 1;
		if (exchange(argv[1], argv[2]) != 0)
			return 1;
		swaps += 2;
	}
	printf("%lu\n", swaps);
	return 0;
}
