/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Internal view of the mount table: what the walker asks of a mount. */
#ifndef BINO_MOUNTS_H
#define BINO_MOUNTS_H

#include "internal.h"

/* How far readdir and statx of a filesystem can be trusted for identity. */
enum bino_fs_kind {
	/* d_ino is st_ino and st_dev is the mount's for non-directories. */
	BINO_FS_DINO_EXACT,
	/* Like DINO_EXACT, plus subvolumes: btrfs. */
	BINO_FS_BTRFS,
	/* NFS clients: identity needs the file handle. */
	BINO_FS_NFS,
	/* Anything else (overlayfs, FUSE, unknown): stat every entry. */
	BINO_FS_OTHER,
};

enum bino_fs_kind bino__mount_fs_kind(const struct bino_mount *mount);

/*
 * Whether some mount sits on a non-directory whose parent directory is on
 * @mount: then readdir alone cannot tell that a name is a mount point.
 */
bool bino__mount_has_file_mountpoints(const struct bino_mount *mount);

/*
 * The mount of @mounts that holds the absolute path @path: the one whose
 * mount point is the longest prefix of it (of two on one point, the later,
 * which hides the earlier), or NULL if none does.
 */
const struct bino_mount *bino__mounts_holding(const struct bino_mounts *mounts,
					      const char *path);

/*
 * The mount at mount point @target (exactly as the table writes it): of
 * several on one point, the last mounted, which hides the others; or NULL.
 */
const struct bino_mount *bino__mounts_at(const struct bino_mounts *mounts,
					 const char *target);

/*
 * The mounts of @mounts whose mount point is strictly below the directory
 * @dir, the last mounted of each point only, sorted by mount point (a mount
 * comes after those above it): returns their number, with *@ret at the
 * first of them, valid as long as @mounts.
 */
size_t bino__mounts_below(const struct bino_mounts *mounts, const char *dir,
			  const struct bino_mount *const **ret);

/*
 * Whether @mounts was read from a file named to bino_mounts_create_checked() (another
 * server, offline) rather than the process's own table.
 */
bool bino__mounts_from_file(const struct bino_mounts *mounts);

/*
 * @mount's options as the fstab line of another subvolume of its filesystem
 * carries them: without subvol= and subvolid=, without the options the
 * kernel only shows (seclabel, which SELinux adds and mount(8) does not
 * take on a system without it), each option once, "defaults" when none is
 * left.  Shared by suggestions and mount plans, so the two
 * always agree.  Allocated; NULL when out of memory.
 */
char *bino__mount_options_for_subvol(const struct bino_mount *mount);

#endif
