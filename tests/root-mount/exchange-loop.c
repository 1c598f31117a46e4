/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper: swap two names with renameat2(RENAME_EXCHANGE) over and over,
 * as a user racing root's mount would swap a directory of theirs with a
 * symbolic link, until SIGTERM or SIGINT; then print how many swaps were
 * made, and leave the names as they were at the start (an even count).
 * With COUNT, make that many swaps and stop.
 *
 * The loop says "swapping" on stdout once it takes the signals below.
 * SIGUSR1 pauses it with the names as at the start and it says "paused"
 * once it has made its last swap; SIGUSR2 resumes it.  A test looks at the
 * tree only after reading "paused": SIGSTOP would not do, since kill(2)
 * returns before the process stops, and a renameat2 under way still
 * completes (a test that read a mount's path then met another name).  A
 * paused loop ends on SIGTERM as a running one does.
 * Usage: exchange-loop PATH1 PATH2 [COUNT]
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile sig_atomic_t stop, pause_asked, resume_asked;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		pause_asked = 1;
	else if (sig == SIGUSR2)
		resume_asked = 1;
	else
		stop = 1;
}

static int exchange(const char *a, const char *b)
{
	if (renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) == 0)
		return 0;
	fprintf(stderr, "exchange-loop: %s <-> %s: %s\n", a, b, strerror(errno));
	return -1;
}

/*
 * Say "paused" and wait for SIGUSR2 (or SIGTERM, SIGINT): the signals are
 * blocked from before the line is written until sigsuspend(2) takes them,
 * so a SIGUSR2 sent as soon as it is read is never missed.
 */
static void pause_until_resumed(void)
{
	sigset_t waited, old;

	sigemptyset(&waited);
	sigaddset(&waited, SIGUSR2);
	sigaddset(&waited, SIGTERM);
	sigaddset(&waited, SIGINT);
	sigprocmask(SIG_BLOCK, &waited, &old);
	pause_asked = 0;
	printf("paused\n");
	fflush(stdout);
	while (!resume_asked && !stop)
		sigsuspend(&old);
	resume_asked = 0;
	sigprocmask(SIG_SETMASK, &old, NULL);
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
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	printf("swapping\n");
	fflush(stdout);
	while (!stop) {
		if (pause_asked) {
			pause_until_resumed();
			continue;
		}
		if (exchange(argv[1], argv[2]) != 0)
			return 1;
		if (exchange(argv[1], argv[2]) != 0)
			return 1;
		swaps += 2;
	}
	printf("%lu\n", swaps);
	return 0;
}
