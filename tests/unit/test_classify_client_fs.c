/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The other half of a collision's classification without root: in which
 * client filesystem an entry below a server mount is counted.  The audit
 * (audit_levels.c) asks the crossing rule, bino__nfsview_cross(), and opens
 * a new client filesystem for CROSSMNT, NOHIDE and NFSV4, keeps the
 * parent's for SAME_CONTENT, and counts the covered directory for HIDDEN.
 * Here the rule is asked of an export table and a server mount table
 * written inline: every view, which rule wins when several apply, and
 * which export flags the new client filesystem gets.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mounts.h"
#include "nfsview.h"

/*
 * The server: a btrfs filesystem mounted at /bino-e, and below it
 * subvolume /sub mounted on its own path, subvolume /other mounted over
 * directory data, and directory /usb of another device's filesystem at usb
 * (the same path, but not the same content).  (Paths that exist nowhere:
 * the export table keeps them as written.)
 */
static const char server_mountinfo[] =
	"1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
	"2 1 0:40 / /bino-e rw - btrfs /dev/sdb rw,subvolid=5,subvol=/\n"
	"3 2 0:40 /sub /bino-e/sub rw - btrfs /dev/sdb rw,subvolid=256,subvol=/sub\n"
	"4 2 0:40 /other /bino-e/data rw - btrfs /dev/sdb rw,subvolid=257,subvol=/other\n"
	"5 2 0:41 /usb /bino-e/usb rw - ext4 /dev/sdc1 rw\n";

enum { SUBVOL_ON_ITS_PATH = 3, SUBVOL_OVER_A_DIR = 4, OTHER_DEVICE = 5 };

static struct bino_mounts *server;
static struct bino_exports *exports;
static struct nfsview_exports *resolved;

static void setup(void)
{
	char path[] = "/tmp/bino-classify-mountinfo-XXXXXX";
	int fd = mkstemp(path);

	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, server_mountinfo, strlen(server_mountinfo)),
		     (ssize_t)strlen(server_mountinfo));
	close(fd);
	cr_assert_eq(bino_mounts_create(path, &server), BINO_OK);
	unlink(path);
}

static void teardown(void)
{
	bino__nfsview_exports_destroy(resolved);
	bino_exports_destroy(exports);
	bino_mounts_destroy(server);
	resolved = NULL;
	exports = NULL;
	server = NULL;
}

TestSuite(client_fs, .init = setup, .fini = teardown);

/* Read the export table @text (exports(5)). */
static void export_table(const char *text)
{
	struct bino_syntax_error err;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "test.exports", text,
					     strlen(text), &err),
		     BINO_OK, "%s:%u: %s", err.file, err.line, err.message);
	cr_assert_eq(bino__nfsview_exports_create(exports, &resolved), BINO_OK);
}

/* The flags of the @index'th export of the table. */
static int export_flags(size_t index)
{
	return bino_export_flags(bino_exports_get(exports, index));
}

/*
 * What a client sees at server mount @id, reached in a client filesystem
 * exported with @parent_flags, by clients modelled by @audit_flags; the
 * new client filesystem's export flags in *@child_flags.
 */
static enum bino_submount_view cross(uint64_t id, int parent_flags,
				     int audit_flags, int *child_flags)
{
	const struct bino_mount *mount = bino_mounts_find_id(server, id);
	struct nfsview view = {
		.exports = resolved,
		.mounts = server,
		.audit_flags = audit_flags,
	};

	cr_assert_not_null(mount, "no mount %llu", (unsigned long long)id);
	if (!exports)
		export_table("/bino-e *(rw)\n");
	*child_flags = -1;
	return bino__nfsview_cross(&view, mount, bino_mount_target(mount),
				   parent_flags, child_flags);
}

Test(client_fs, a_mount_below_a_crossmnt_export_is_a_new_client_fs_with_its_flags)
{
	int flags;

	cr_assert_eq(cross(OTHER_DEVICE, BINO_EXPORT_CROSSMNT, 0, &flags),
		     BINO_SUBMOUNT_CROSSMNT);
	cr_assert_eq(flags, BINO_EXPORT_CROSSMNT);
}

Test(client_fs, a_mount_exported_itself_below_crossmnt_gets_its_own_flags)
{
	int flags;

	export_table("/bino-e *(rw,crossmnt)\n/bino-e/usb *(ro)\n");
	cr_assert_eq(cross(OTHER_DEVICE, export_flags(0), 0, &flags),
		     BINO_SUBMOUNT_CROSSMNT);
	cr_assert_eq(flags, BINO_EXPORT_RO, "not the parent's crossmnt");
}

Test(client_fs, crossmnt_wins_over_a_subvolume_shown_on_its_own_path)
{
	int flags;

	cr_assert_eq(cross(SUBVOL_ON_ITS_PATH, BINO_EXPORT_CROSSMNT, 0, &flags),
		     BINO_SUBMOUNT_CROSSMNT);
}

Test(client_fs, a_mount_point_exported_with_nohide_is_a_new_client_fs)
{
	int flags;

	export_table("/bino-e *(rw)\n/bino-e/usb *(rw,nohide)\n");
	cr_assert_eq(cross(OTHER_DEVICE, export_flags(0), 0, &flags),
		     BINO_SUBMOUNT_NOHIDE);
	cr_assert_eq(flags, BINO_EXPORT_NOHIDE);
}

Test(client_fs, nohide_is_taken_from_whichever_export_of_the_mount_point_has_it)
{
	int flags;

	export_table("/bino-e *(rw)\n"
		     "/bino-e/usb a(ro) b(rw,nohide,subtree_check)\n");
	cr_assert_eq(cross(OTHER_DEVICE, export_flags(0), BINO_AUDIT_NFSV4,
			   &flags),
		     BINO_SUBMOUNT_NOHIDE, "nohide before NFSv4's rule");
	cr_assert_eq(flags, BINO_EXPORT_NOHIDE | BINO_EXPORT_SUBTREE_CHECK);
}

Test(client_fs, an_exported_mount_point_is_a_new_client_fs_for_nfsv4_clients)
{
	int flags;

	export_table("/bino-e *(rw)\n/bino-e/usb *(ro)\n");
	cr_assert_eq(cross(OTHER_DEVICE, export_flags(0), BINO_AUDIT_NFSV4,
			   &flags),
		     BINO_SUBMOUNT_NFSV4);
	cr_assert_eq(flags, BINO_EXPORT_RO);
}

Test(client_fs, an_exported_mount_point_is_hidden_from_nfsv3_clients)
{
	int flags;

	export_table("/bino-e *(rw)\n/bino-e/usb *(ro)\n");
	cr_assert_eq(cross(OTHER_DEVICE, export_flags(0), 0, &flags),
		     BINO_SUBMOUNT_HIDDEN);
	cr_assert_eq(flags, export_flags(0), "the parent's");
}

Test(client_fs, a_subvolume_mounted_on_its_own_path_shows_the_same_content)
{
	int flags;

	cr_assert_eq(cross(SUBVOL_ON_ITS_PATH, 0, BINO_AUDIT_NFSV4, &flags),
		     BINO_SUBMOUNT_SAME_CONTENT);
	cr_assert_eq(flags, 0, "the parent's");
}

Test(client_fs, a_subvolume_mounted_over_another_directory_is_hidden)
{
	int flags;

	cr_assert_eq(cross(SUBVOL_OVER_A_DIR, 0, BINO_AUDIT_NFSV4, &flags),
		     BINO_SUBMOUNT_HIDDEN);
}

Test(client_fs, a_mount_of_another_device_not_exported_is_hidden)
{
	int flags;

	cr_assert_eq(cross(OTHER_DEVICE, 0, BINO_AUDIT_NFSV4, &flags),
		     BINO_SUBMOUNT_HIDDEN);
	cr_assert_eq(flags, 0, "the parent's");
}
