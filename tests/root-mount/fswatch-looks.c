/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper: watch the btrfs filesystem holding PATH (bino_fswatch) and,
 * for each line read on stdin, look again and print what the look saw on
 * one line: "check" looks with bino_fswatch_check(), "added" with
 * bino_fswatch_check_added(); the answer is "unchanged", "changed" or
 * "added ID..." (the IDs bino_fswatch_added_id() names, in its order).
 * Lets a test make subvolumes between looks and compare the IDs with
 * btrfs-progs'.  Usage: fswatch-looks PATH
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "btrfsino.h"

static int fail(const char *what, enum bino_error err)
{
	fprintf(stderr, "fswatch-looks: %s: %s: %s\n", what, bino_strerror(err),
		strerror(errno));
	return 2;
}

int main(int argc, char **argv)
{
	struct bino_fswatch *watch;
	enum bino_fswatch_change change;
	enum bino_error err;
	char line[64];
	size_t i;

	if (argc != 2) {
		fprintf(stderr, "usage: fswatch-looks PATH\n");
		return 2;
	}
	err = bino_fswatch_create(argv[1], 0, &watch);
	if (err)
		return fail("create", err);
	printf("ready\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin)) {
		err = strcmp(line, "added\n") == 0 ?
			      bino_fswatch_check_added(watch, &change) :
			      bino_fswatch_check(watch, &change);
		if (err) {
			bino_fswatch_destroy(watch);
			return fail("look", err);
		}
		if (change == BINO_FSWATCH_UNCHANGED)
			printf("unchanged");
		else if (change == BINO_FSWATCH_CHANGED)
			printf("changed");
		else
			printf("added");
		for (i = 0; change == BINO_FSWATCH_ADDED &&
			    i < bino_fswatch_added_count(watch); i++)
			printf(" %" PRIu64, bino_fswatch_added_id(watch, i));
		printf("\n");
		fflush(stdout);
	}
	bino_fswatch_destroy(watch);
	return 0;
}
