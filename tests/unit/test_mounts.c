/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The mount table API over mountinfo fixtures written as the kernel writes them. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "btrfsino.h"

/*
 * tests/data/mountinfo/server.mountinfo, line by line (mount ID, parent ID,
 * MAJOR:MINOR, root, mount point, fstype, source):
 *   21 1  254:1 /          /                      ext4     /dev/vda1
 *   22 21 0:21  /          /proc                  proc     proc
 *   23 21 0:22  /          /sys                   sysfs    sysfs
 *   24 21 0:5   /          /dev                   devtmpfs udev
 *   25 21 0:25  /          /run                   tmpfs    tmpfs
 *   31 21 0:33  /          /data                  btrfs    /dev/sdb  subvolid=5
 *   32 21 0:33  /fex       /srv/fex               btrfs    /dev/sdb  subvolid=257
 *   33 32 0:33  /fex/spool /srv/fex/my\040spool   btrfs    /dev/sdb  subvolid=258
 *   40 21 0:45  /          /var/lib/docker/...    overlay  overlay
 *   45 21 0:52  /          /nfs/tsmsrvj           nfs4     tsmsrvj:/data
 */
static struct bino_mounts *mounts;

static char *fixture(const char *name)
{
	const char *dir = getenv("BINO_TEST_DATA");
	char *path;

	cr_assert_not_null(dir, "BINO_TEST_DATA is not set");
	cr_assert(asprintf(&path, "%s/mountinfo/%s", dir, name) > 0);
	return path;
}

static void load_server(void)
{
	char *path = fixture("server.mountinfo");

	cr_assert_eq(bino_mounts_create(path, &mounts), BINO_OK);
	free(path);
}

static void unload(void)
{
	bino_mounts_destroy(mounts);
	mounts = NULL;
}

TestSuite(mounts_fixture, .init = load_server, .fini = unload);
TestSuite(mounts_create, .fini = unload);

static const struct bino_mount *by_id(uint64_t id)
{
	const struct bino_mount *mount = bino_mounts_find_id(mounts, id);

	cr_assert_not_null(mount, "no mount %lu", (unsigned long)id);
	return mount;
}

Test(mounts_fixture, counts_every_line)
{
	cr_assert_eq(bino_mounts_count(mounts), 10);
}

Test(mounts_fixture, get_returns_mounts_in_file_order_then_null)
{
	static const uint64_t ids[] = { 21, 22, 23, 24, 25, 31, 32, 33, 40, 45 };
	size_t i;

	for (i = 0; i < 10; i++) {
		const struct bino_mount *mount = bino_mounts_get(mounts, i);

		cr_assert_not_null(mount);
		cr_assert_eq(bino_mount_id(mount), ids[i], "index %zu", i);
	}
	cr_assert_null(bino_mounts_get(mounts, 10));
	cr_assert_null(bino_mounts_get(mounts, (size_t)-1));
}

Test(mounts_fixture, find_id_returns_the_mount_with_that_id)
{
	cr_assert_str_eq(bino_mount_target(by_id(32)), "/srv/fex");
	cr_assert_str_eq(bino_mount_target(by_id(21)), "/");
	cr_assert_str_eq(bino_mount_target(by_id(45)), "/nfs/tsmsrvj");
}

Test(mounts_fixture, find_id_of_an_unknown_id_is_null)
{
	cr_assert_null(bino_mounts_find_id(mounts, 0));
	cr_assert_null(bino_mounts_find_id(mounts, 26));
	cr_assert_null(bino_mounts_find_id(mounts, 1));
}

Test(mounts_fixture, find_dev_returns_the_first_mount_of_the_device)
{
	const struct bino_mount *btrfs =
		bino_mounts_find_dev(mounts, makedev(0, 33));
	const struct bino_mount *ext4 =
		bino_mounts_find_dev(mounts, makedev(254, 1));

	cr_assert_not_null(btrfs);
	cr_assert_eq(bino_mount_id(btrfs), 31);
	cr_assert_not_null(ext4);
	cr_assert_eq(bino_mount_id(ext4), 21);
}

Test(mounts_fixture, find_dev_of_an_unlisted_device_is_null)
{
	/* e.g. the anonymous device of a btrfs subvolume */
	cr_assert_null(bino_mounts_find_dev(mounts, makedev(0, 34)));
	cr_assert_null(bino_mounts_find_dev(mounts, makedev(254, 0)));
}

Test(mounts_fixture, dev_is_major_minor_encoded_by_makedev)
{
	cr_assert_eq(bino_mount_dev(by_id(21)), makedev(254, 1));
	cr_assert_eq(bino_mount_dev(by_id(33)), makedev(0, 33));
	cr_assert_eq(bino_mount_dev(by_id(45)), makedev(0, 52));
}

Test(mounts_fixture, parent_id_is_the_second_field)
{
	cr_assert_eq(bino_mount_parent_id(by_id(21)), 1);
	cr_assert_eq(bino_mount_parent_id(by_id(32)), 21);
	cr_assert_eq(bino_mount_parent_id(by_id(33)), 32);
}

Test(mounts_fixture, btrfs_subvolume_mount_has_its_root_and_subvolid)
{
	const struct bino_mount *mount = by_id(32);

	cr_assert_str_eq(bino_mount_root(mount), "/fex");
	cr_assert_str_eq(bino_mount_target(mount), "/srv/fex");
	cr_assert_str_eq(bino_mount_fstype(mount), "btrfs");
	cr_assert_str_eq(bino_mount_source(mount), "/dev/sdb");
	cr_assert_eq(bino_mount_subvolid(mount), 257);
}

Test(mounts_fixture, btrfs_top_level_mount_has_subvolid_5)
{
	cr_assert_str_eq(bino_mount_root(by_id(31)), "/");
	cr_assert_eq(bino_mount_subvolid(by_id(31)), 5);
}

Test(mounts_fixture, octal_escaped_mount_point_is_unescaped)
{
	const struct bino_mount *mount = by_id(33);

	cr_assert_str_eq(bino_mount_target(mount), "/srv/fex/my spool");
	cr_assert_str_eq(bino_mount_root(mount), "/fex/spool");
	cr_assert_eq(bino_mount_subvolid(mount), 258);
}

Test(mounts_fixture, options_join_per_mount_then_superblock_options)
{
	/* "rw,noatime" + "rw,ssd,...": the superblock's rw is not repeated */
	cr_assert_str_eq(bino_mount_options(by_id(33)),
			 "rw,noatime,ssd,discard=async,space_cache=v2,"
			 "subvolid=258,subvol=/fex/spool");
	cr_assert_str_eq(bino_mount_options(by_id(22)),
			 "rw,nosuid,nodev,noexec,relatime");
}

Test(mounts_fixture, overlay_mount_fields)
{
	const struct bino_mount *mount = by_id(40);

	cr_assert_str_eq(bino_mount_fstype(mount), "overlay");
	cr_assert_str_eq(bino_mount_source(mount), "overlay");
	cr_assert_str_eq(bino_mount_target(mount),
			 "/var/lib/docker/overlay2/3f1c/merged");
	cr_assert_eq(bino_mount_subvolid(mount), 0);
}

Test(mounts_fixture, nfs4_mount_fields)
{
	const struct bino_mount *mount = by_id(45);

	cr_assert_str_eq(bino_mount_fstype(mount), "nfs4");
	cr_assert_str_eq(bino_mount_source(mount), "tsmsrvj:/data");
	cr_assert_str_eq(bino_mount_root(mount), "/");
	cr_assert_eq(bino_mount_subvolid(mount), 0);
}

Test(mounts_fixture, mounts_without_subvolid_option_have_subvolid_0)
{
	static const uint64_t ids[] = { 21, 22, 23, 24, 25, 40, 45 };
	size_t i;

	for (i = 0; i < sizeof(ids) / sizeof(*ids); i++)
		cr_assert_eq(bino_mount_subvolid(by_id(ids[i])), 0, "mount %lu",
			     (unsigned long)ids[i]);
}

Test(mounts_create, of_a_missing_file_fails_with_enoent)
{
	char *path = fixture("no-such.mountinfo");

	mounts = NULL;
	errno = 0;
	cr_assert_eq(bino_mounts_create(path, &mounts),
		     BINO_ERROR_MOUNTINFO_FAILED);
	cr_assert_eq(errno, ENOENT, "errno %s", strerror(errno));
	cr_assert_null(mounts);
	free(path);
}

Test(mounts_create, of_an_empty_file_is_an_empty_table)
{
	char *path = fixture("empty.mountinfo");

	cr_assert_eq(bino_mounts_create(path, &mounts), BINO_OK);
	cr_assert_eq(bino_mounts_count(mounts), 0);
	cr_assert_null(bino_mounts_get(mounts, 0));
	cr_assert_null(bino_mounts_find_id(mounts, 21));
	free(path);
}

Test(mounts_create, of_the_process_holds_the_mount_of_the_root)
{
	struct statx stx;
	const struct bino_mount *mount;

	cr_assert_eq(statx(AT_FDCWD, "/", 0, STATX_MNT_ID, &stx), 0);
	cr_assert(stx.stx_mask & STATX_MNT_ID, "kernel without STATX_MNT_ID");
	cr_assert_eq(bino_mounts_create(NULL, &mounts), BINO_OK);
	mount = bino_mounts_find_id(mounts, stx.stx_mnt_id);
	cr_assert_not_null(mount);
	cr_assert_str_eq(bino_mount_target(mount), "/");
}

Test(mounts_create, destroy_accepts_null)
{
	bino_mounts_destroy(NULL);
}
