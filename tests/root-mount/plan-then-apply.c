/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Test helper: plan the mounts and unmounts for one exported PATH (audit,
 * suggestion, bino_mountplan_*, stale mounts below PATH too), print the
 * steps, wait for a line on stdin, then apply each step and print its
 * result: lets a test change the tree between the plan and the mounts.
 * Usage: plan-then-apply EXPORTS PATH
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "btrfsino.h"

static int fail(const char *what, enum bino_error err)
{
	fprintf(stderr, "plan-then-apply: %s: %s: %s\n", what, bino_strerror(err),
		strerror(errno));
	return 2;
}

int main(int argc, char **argv)
{
	struct bino_exports *exports = NULL;
	struct bino_mounts *mounts = NULL;
	struct bino_audit *audit = NULL;
	struct bino_suggestion *sug = NULL;
	struct bino_mountplan *plan = NULL;
	static const char *const done[] = {
		[BINO_MOUNTPLAN_MOUNT] = "mounted",
		[BINO_MOUNTPLAN_UMOUNT] = "unmounted",
		[BINO_MOUNTPLAN_SKIP] = "skipped",
	};
	enum bino_error err;
	char line[64];
	size_t i;

	if (argc != 3) {
		fprintf(stderr, "usage: plan-then-apply EXPORTS PATH\n");
		return 2;
	}
	if ((err = bino_exports_create(&exports)) ||
	    (err = bino_exports_add_file(exports, argv[1], NULL)))
		return fail("exports", err);
	if ((err = bino_mounts_create(NULL, &mounts)))
		return fail("mounts", err);
	if ((err = bino_audit_create(exports, mounts, 0, &audit)) ||
	    (err = bino_audit_add_path(audit, argv[2])) ||
	    (err = bino_audit_run(audit)))
		return fail("audit", err);
	if ((err = bino_suggestion_create(bino_audit_get(audit, 0), mounts, 0, &sug)))
		return fail("suggestion", err);
	if ((err = bino_mountplan_create(0, &plan)) ||
	    (err = bino_mountplan_add_stale(plan, mounts, argv[2])) ||
	    (err = bino_mountplan_add_suggestion(plan, sug)))
		return fail("plan", err);
	for (i = 0; i < bino_mountplan_count(plan); i++) {
		const struct bino_mountplan_step *step = bino_mountplan_get(plan, i);

		printf("plan %" PRIu64 " %s\n", bino_mountplan_step_subvolid(step),
		       bino_mountplan_step_path(step));
	}
	printf("planned\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 2;
	for (i = 0; i < bino_mountplan_count(plan); i++) {
		const struct bino_mountplan_step *step = bino_mountplan_get(plan, i);

		err = bino_mountplan_step_apply(step);
		printf("%s %s%s%s\n", bino_mountplan_step_path(step),
		       err ? bino_strerror(err) : done[bino_mountplan_step_action(step)],
		       err ? ": " : "", err ? strerror(errno) : "");
	}
	bino_mountplan_destroy(plan);
	bino_suggestion_destroy(sug);
	bino_audit_destroy(audit);
	bino_mounts_destroy(mounts);
	bino_exports_destroy(exports);
	return 0;
}
