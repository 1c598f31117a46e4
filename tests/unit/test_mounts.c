/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The mount table API over mountinfo fixtures written as the kernel writes them. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "btrfsino.h"
#include "mounts.h"

/*
 * tests/data/mountinfo/btrfs-subvolumes-overlay-nfs4.mountinfo, line by
 * line (mount ID, parent ID, MAJOR:MINOR, root, mount point, fstype,
 * source):
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
	char *path = fixture("btrfs-subvolumes-overlay-nfs4.mountinfo");

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
	char *path = fixture("zero-bytes.mountinfo");

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

/* ---- files from other projects, and where a malformed one goes wrong ---- */

TestSuite(mounts_read, .fini = unload);

/* Non-blank lines that are not '#' comments: one mount each. */
static size_t table_lines(const char *path)
{
	FILE *file = fopen(path, "re");
	char line[8192];
	size_t n = 0;

	cr_assert_not_null(file, "%s", path);
	while (fgets(line, sizeof(line), file)) {
		const char *p = line + strspn(line, " \t");

		n += *p != '\n' && *p != '\0' && *p != '#';
	}
	fclose(file);
	return n;
}

Test(mounts_read, reads_every_line_of_the_util_linux_and_systemd_tables)
{
	static const char *const names[] = {
		"util-linux-mountinfo.mountinfo",
		"util-linux-mountinfo_btrfs.mountinfo",
		"util-linux-mountinfo_nosrc.mountinfo",
		"util-linux-findmnt-mountinfo-messy.mountinfo",
		"util-linux-findmnt-mountinfo-nonroot.mountinfo",
		"systemd-rhbug-1554943.mountinfo",
	};
	size_t i, j;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		char *path = fixture(names[i]);
		struct bino_syntax_error syntax;

		memset(&syntax, 0, sizeof(syntax));
		cr_assert_eq(bino_mounts_read(path, &syntax, &mounts), BINO_OK,
			     "%s: %s:%u:%u: %s", names[i], syntax.file,
			     syntax.line, syntax.column, syntax.message);
		cr_assert_eq(bino_mounts_count(mounts), table_lines(path), "%s",
			     names[i]);
		for (j = 0; j < bino_mounts_count(mounts); j++) {
			const struct bino_mount *mount = bino_mounts_get(mounts, j);

			cr_assert_eq(bino_mount_target(mount)[0], '/', "%s", names[i]);
			cr_assert_not_null(bino_mounts_find_id(mounts,
							       bino_mount_id(mount)));
		}
		unload();
		free(path);
	}
}

Test(mounts_read, util_linux_btrfs_table_has_each_subvolume_mount)
{
	char *path = fixture("util-linux-mountinfo_btrfs.mountinfo");

	cr_assert_eq(bino_mounts_read(path, NULL, &mounts), BINO_OK);
	/* 20 1 259:3 /root / ... subvolid=256,subvol=/root */
	cr_assert_str_eq(bino_mount_root(by_id(20)), "/root");
	cr_assert_str_eq(bino_mount_target(by_id(20)), "/");
	cr_assert_eq(bino_mount_subvolid(by_id(20)), 256);
	cr_assert_eq(bino_mount_dev(by_id(20)), makedev(259, 3));
	/* 25 1 259:3 /var_cache /var/cache ... subvolid=265 */
	cr_assert_str_eq(bino_mount_target(by_id(25)), "/var/cache");
	cr_assert_eq(bino_mount_subvolid(by_id(25)), 265);
	free(path);
}

Test(mounts_read, keeps_the_empty_source_of_util_linux_nosrc_table)
{
	char *path = fixture("util-linux-mountinfo_nosrc.mountinfo");

	cr_assert_eq(bino_mounts_read(path, NULL, &mounts), BINO_OK);
	/* 21 20 0:53 / /mnt/test rw,relatime shared:212 - tmpfs  rw */
	cr_assert_str_eq(bino_mount_target(by_id(21)), "/mnt/test");
	cr_assert_str_eq(bino_mount_fstype(by_id(21)), "tmpfs");
	cr_assert_str_eq(bino_mount_source(by_id(21)), "");
	free(path);
}

/* Read @text as a mountinfo file; expect a syntax error at @line:@column. */
static void expect_syntax_error(const char *text, unsigned int line,
				unsigned int column, const char *message)
{
	char path[] = "/tmp/btrfs-ino-test-mounts.XXXXXX";
	struct bino_syntax_error syntax;
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	memset(&syntax, 0, sizeof(syntax));
	mounts = NULL;
	cr_assert_eq(bino_mounts_create_checked(path, &syntax, &mounts),
		     BINO_ERROR_MOUNTINFO_SYNTAX);
	cr_assert_null(mounts);
	cr_assert_str_eq(syntax.file, path);
	cr_assert_eq(syntax.line, line, "line %u: %s", syntax.line,
		     syntax.message);
	cr_assert_eq(syntax.column, column, "column %u: %s", syntax.column,
		     syntax.message);
	cr_assert_not_null(strstr(syntax.message, message), "%s",
			   syntax.message);
	unlink(path);
}

#define GOOD_LINE "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"

Test(mounts_read, a_shell_prompt_pasted_above_the_table_is_line_1_column_1)
{
	expect_syntax_error("root@server:~# cat /proc/self/mountinfo\n" GOOD_LINE,
			    1, 1, "mount ID");
	expect_syntax_error("$ cat /proc/self/mountinfo\n" GOOD_LINE, 1, 1,
			    "mount ID");
}

Test(mounts_read, systemd_garbled_table_fails_at_its_first_garbled_line)
{
	char *path = fixture("systemd-garbled.mountinfo");
	struct bino_syntax_error syntax;

	memset(&syntax, 0, sizeof(syntax));
	cr_assert_eq(bino_mounts_read(path, &syntax, &mounts),
		     BINO_ERROR_MOUNTINFO_SYNTAX);
	/* "44 44": the device field after the two IDs is missing. */
	cr_assert_eq(syntax.line, 2);
	cr_assert_eq(syntax.column, 6);
	cr_assert_not_null(strstr(syntax.message, "MAJOR:MINOR"));
	free(path);
}

Test(mounts_read, names_the_column_of_the_field_that_is_wrong)
{
	/* Lines after a good one; columns count from 1, in bytes. */
	expect_syntax_error(GOOD_LINE "23 x 8:2 / /x rw - ext4 /dev/sda2 rw\n",
			    2, 4, "parent");
	expect_syntax_error(GOOD_LINE "23 22 8-2 / /x rw - ext4 /dev/sda2 rw\n",
			    2, 7, "MAJOR:MINOR");
	expect_syntax_error(GOOD_LINE "23 22 8:2 / x rw - ext4 /dev/sda2 rw\n",
			    2, 13, "mount point");
	/* No " - ": the column is one past the end of the line. */
	expect_syntax_error(GOOD_LINE "23 22 8:2 / /x rw shared:1 ext4 /dev/sda2 rw\n",
			    2, 45, "\" - \"");
	expect_syntax_error(GOOD_LINE "23 22 8:2 / /x rw -\n", 2, 20,
			    "filesystem type");
	expect_syntax_error(GOOD_LINE "\n# comment\n0 22 8:2 / /x rw - ext4 /dev/sda2 rw\n",
			    4, 1, "mount ID");
}

/* ---- the mount holding a path (offline: the file's, for audit and suggest) */

static uint64_t holding(const char *name, const char *path)
{
	char *file = fixture(name);
	const struct bino_mount *mount;
	uint64_t id;

	cr_assert_eq(bino_mounts_read(file, NULL, &mounts), BINO_OK, "%s", name);
	mount = bino__mounts_holding(mounts, path);
	id = mount ? bino_mount_id(mount) : 0;
	unload();
	free(file);
	return id;
}

Test(mounts_holding, is_the_longest_mount_point_prefix_of_the_path)
{
	/* systemd-rhbug-1554943: 63 "/", 89 "/tmp", 77 "/Volumes/dune",
	 * 85 "/Volumes/dune/www-servers/cms/cms/temp" */
	static const char *const rhbug = "systemd-rhbug-1554943.mountinfo";

	cr_assert_eq(holding(rhbug, "/"), 63);
	cr_assert_eq(holding(rhbug, "/srv/data"), 63);
	cr_assert_eq(holding(rhbug, "/tmp"), 89);
	cr_assert_eq(holding(rhbug, "/tmp/btrfs-ino/mnt/fex"), 89);
	cr_assert_eq(holding(rhbug, "/tmpfoo"), 63, "a prefix of a name is no mount point");
	cr_assert_eq(holding(rhbug, "/Volumes/dune/www-servers/x"), 77);
	cr_assert_eq(holding(rhbug, "/Volumes/dune/www-servers/cms/cms/temp/a"), 85);
}

Test(mounts_holding, of_two_mounts_on_one_point_is_the_later)
{
	/* util-linux mountinfo: 33 autofs then 38 hugetlbfs on /dev/hugepages,
	 * 36 autofs then 39 mqueue on /dev/mqueue */
	static const char *const table = "util-linux-mountinfo.mountinfo";

	cr_assert_eq(holding(table, "/dev/hugepages"), 38);
	cr_assert_eq(holding(table, "/dev/hugepages/x"), 38);
	cr_assert_eq(holding(table, "/dev/mqueue/q"), 39);
}

Test(mounts_holding, is_null_where_the_table_has_no_mount_above)
{
	/* util-linux findmnt mountinfo-nonroot: no "/" */
	static const char *const nonroot = "util-linux-findmnt-mountinfo-nonroot.mountinfo";

	cr_assert_eq(holding(nonroot, "/home/user"), 0);
	cr_assert_eq(holding(nonroot, "/"), 0);
	cr_assert_eq(holding(nonroot, "/dev/pts/0"), 18);
}

Test(mounts_holding, only_a_table_read_from_a_file_is_another_servers)
{
	char *file = fixture("btrfs-subvolumes-overlay-nfs4.mountinfo");

	cr_assert_eq(bino_mounts_read(file, NULL, &mounts), BINO_OK);
	cr_assert(bino__mounts_from_file(mounts));
	unload();
	cr_assert_eq(bino_mounts_read(NULL, NULL, &mounts), BINO_OK);
	cr_assert_not(bino__mounts_from_file(mounts));
	unload();
	free(file);
}

/* ---- the mount at a mount point, the mounts below a directory ----------- */

/* util-linux mountinfo below /dev, as the file lists them (ID, point):
 * 17 /dev, 18 /dev/pts, 19 /dev/shm, 33 then 38 /dev/hugepages,
 * 36 then 39 /dev/mqueue. */
static void load_util_linux(void)
{
	char *path = fixture("util-linux-mountinfo.mountinfo");

	cr_assert_eq(bino_mounts_read(path, NULL, &mounts), BINO_OK);
	free(path);
}

TestSuite(mounts_index, .init = load_util_linux, .fini = unload);

Test(mounts_index, at_a_mount_point_is_the_last_mounted_there)
{
	cr_assert_eq(bino_mount_id(bino__mounts_at(mounts, "/dev/hugepages")), 38);
	cr_assert_eq(bino_mount_id(bino__mounts_at(mounts, "/dev/mqueue")), 39);
	cr_assert_eq(bino_mount_id(bino__mounts_at(mounts, "/dev")), 17);
}

Test(mounts_index, at_a_directory_that_is_no_mount_point_is_null)
{
	cr_assert_null(bino__mounts_at(mounts, "/dev/hugepages/x"));
	cr_assert_null(bino__mounts_at(mounts, "/de"));
	cr_assert_null(bino__mounts_at(mounts, "/devices"));
}

Test(mounts_index, below_a_directory_are_its_visible_mounts_by_mount_point)
{
	static const uint64_t expected[] = { 38, 39, 18, 19 };
	const struct bino_mount *const *below;
	size_t i, n = bino__mounts_below(mounts, "/dev", &below);

	/* Sorted: hugepages, mqueue, pts, shm; /dev itself is not below. */
	cr_assert_eq(n, sizeof(expected) / sizeof(*expected));
	for (i = 0; i < n; i++)
		cr_assert_eq(bino_mount_id(below[i]), expected[i], "at %zu", i);
}

Test(mounts_index, below_a_leaf_mount_point_or_a_name_prefix_is_nothing)
{
	const struct bino_mount *const *below;

	cr_assert_eq(bino__mounts_below(mounts, "/dev/shm", &below), 0);
	cr_assert_eq(bino__mounts_below(mounts, "/de", &below), 0);
	cr_assert_eq(bino__mounts_below(mounts, "/sys/fs/cgroup/cpu", &below), 0,
		     "cpuacct and cpuset only share a name prefix");
}

/* h-lib (#27): the *_create name, and the 1.0 name kept as the same function. */
Test(mounts_read, the_1_0_name_is_the_same_function_as_create_checked)
{
	cr_assert_eq((void *)bino_mounts_read, (void *)bino_mounts_create_checked);
}
