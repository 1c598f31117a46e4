/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Mount plans from a mountinfo fixture with deleted subvolumes, and their argument checks. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "btrfsino.h"

/*
 * tests/data/mountinfo/btrfs-deleted-subvolume-mounts.mountinfo, as Linux
 * 6.18 showed it after "btrfs subvolume delete" of snapshots mounted
 * elsewhere too (root, mount point, fstype, subvolid=):
 *   46 /                                /data             btrfs 5
 *   47 /fex/spool                       /data/fex/spool   btrfs 257
 *   49 /fex/spool/.snapshot/s1//deleted /data/fex/other   btrfs 259  stale, below /data/fex
 *   50 /fex/spool/.snapshot/s2//deleted /elsewhere        btrfs 260  stale, not below it
 *   51 //deleted                        /data/fex/scratch tmpfs      not btrfs
 *   52 /fex//deleted                    /data/fex         btrfs 256  the path itself
 */
static struct bino_mounts *mounts;
static struct bino_mountplan *plan;

static void setup(void)
{
	const char *dir = getenv("BINO_TEST_DATA");
	char *path;

	cr_assert_not_null(dir, "BINO_TEST_DATA is not set");
	cr_assert(asprintf(&path, "%s/mountinfo/btrfs-deleted-subvolume-mounts.mountinfo", dir) > 0);
	cr_assert_eq(bino_mounts_create(path, &mounts), BINO_OK);
	free(path);
	cr_assert_eq(bino_mountplan_create(0, &plan), BINO_OK);
}

static void teardown(void)
{
	bino_mountplan_destroy(plan);
	bino_mounts_destroy(mounts);
}

TestSuite(mountplan, .init = setup, .fini = teardown);

Test(mountplan, stale_btrfs_mount_strictly_below_the_path_is_planned_for_unmount)
{
	const struct bino_mountplan_step *step;

	cr_assert_eq(bino_mountplan_add_stale(plan, mounts, "/data/fex"), BINO_OK);
	cr_assert_eq(bino_mountplan_count(plan), 1);
	step = bino_mountplan_get(plan, 0);
	cr_assert_eq(bino_mountplan_step_action(step), BINO_MOUNTPLAN_UMOUNT);
	cr_assert_str_eq(bino_mountplan_step_path(step), "/data/fex/other");
	cr_assert_str_eq(bino_mountplan_step_source(step), "/dev/loop0");
	cr_assert_eq(bino_mountplan_step_subvolid(step), 259);
	cr_assert_str_eq(bino_mountplan_step_fs_path(step), "/fex/spool/.snapshot/s1");
	cr_assert_null(bino_mountplan_step_options(step));
	cr_assert_null(bino_mountplan_step_fs_uuid(step));
	cr_assert_null(bino_mountplan_get(plan, 1));
}

Test(mountplan, the_same_stale_mount_is_planned_once)
{
	cr_assert_eq(bino_mountplan_add_stale(plan, mounts, "/data/fex"), BINO_OK);
	cr_assert_eq(bino_mountplan_add_stale(plan, mounts, "/data"), BINO_OK);
	/* Below /data: /data/fex/other again (once) and /data/fex itself. */
	cr_assert_eq(bino_mountplan_count(plan), 2);
	cr_assert_str_eq(bino_mountplan_step_path(bino_mountplan_get(plan, 1)), "/data/fex");
}

Test(mountplan, a_path_with_no_stale_mount_below_plans_nothing)
{
	cr_assert_eq(bino_mountplan_add_stale(plan, mounts, "/data/fex/spool"), BINO_OK);
	cr_assert_eq(bino_mountplan_count(plan), 0);
}

Test(mountplan, bad_arguments_are_rejected)
{
	struct bino_mountplan *other = NULL;

	cr_assert_eq(bino_mountplan_create(1, &other), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_null(other);
	cr_assert_eq(bino_mountplan_create(0, NULL), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_mountplan_add_stale(plan, mounts, "data/fex"), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_mountplan_add_stale(NULL, mounts, "/data"), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_mountplan_add_stale(plan, NULL, "/data"), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_mountplan_add_suggestion(plan, NULL), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_mountplan_step_apply(NULL), BINO_ERROR_INVALID_ARGUMENT);
	cr_assert_eq(bino_mountplan_count(NULL), 0);
	cr_assert_null(bino_mountplan_get(NULL, 0));
	bino_mountplan_destroy(NULL);
}
