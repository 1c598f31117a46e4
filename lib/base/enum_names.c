/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The stable names of the public enums that appear in output (identity
 * sources, file types, collision classes, the tools each class breaks,
 * submount views, device kinds), designated-initializer tables in the
 * manner of error.c's messages.
 */
#include "internal.h"

#include <stddef.h>

/* NAME_OF(table, value): the name of @value, "unknown" if it has none. */
#define NAME_OF(table, value)                                                  \
	name_of((table), sizeof(table) / sizeof(*(table)), (size_t)(value))

static const char *name_of(const char *const *names, size_t n, size_t value)
{
	return value < n && names[value] ? names[value] : "unknown";
}

static const char *const source_names[] = {
	[BINO_SOURCE_NONE] = "none",
	[BINO_SOURCE_STATX] = "statx",
	[BINO_SOURCE_IOCTL] = "ioctl",
	[BINO_SOURCE_FILE_HANDLE] = "file_handle",
	[BINO_SOURCE_NFS_HANDLE] = "nfs_handle",
	[BINO_SOURCE_UNKNOWN] = "unknown",
};

BINO_PUBLIC const char *bino_source_name(enum bino_source source)
{
	return NAME_OF(source_names, source);
}

static const char *const type_names[] = {
	[BINO_TYPE_UNKNOWN] = "unknown",
	[BINO_TYPE_FILE] = "file",
	[BINO_TYPE_DIR] = "dir",
	[BINO_TYPE_SYMLINK] = "symlink",
	[BINO_TYPE_BLOCK] = "block",
	[BINO_TYPE_CHAR] = "char",
	[BINO_TYPE_FIFO] = "fifo",
	[BINO_TYPE_SOCKET] = "socket",
};

BINO_PUBLIC const char *bino_type_name(enum bino_type type)
{
	return NAME_OF(type_names, type);
}

static const char *const collision_names[] = {
	[BINO_COLLISION_LOOP] = "loop",
	[BINO_COLLISION_HARDLINK] = "hardlink",
	[BINO_COLLISION_PLAIN] = "plain",
};

BINO_PUBLIC const char *bino_collision_name(enum bino_collision collision)
{
	return NAME_OF(collision_names, collision);
}

static const char *const loop_tools[] = {
	"find", "du", "ls -R", "chmod -R", "chown -R", "rm -r", NULL,
};
static const char *const hardlink_tools[] = {
	"tar", "rsync -H", "cp -a", "du", NULL,
};
static const char *const plain_tools[] = {
	"cp", "mv", "diff", "cmp", "find -samefile", NULL,
};
static const char *const no_tools[] = { NULL };

BINO_PUBLIC const char *const *bino_collision_tools(enum bino_collision collision)
{
	switch (collision) {
	case BINO_COLLISION_LOOP:
		return loop_tools;
	case BINO_COLLISION_HARDLINK:
		return hardlink_tools;
	case BINO_COLLISION_PLAIN:
		return plain_tools;
	default:
		return no_tools;
	}
}

static const char *const submount_view_names[] = {
	[BINO_SUBMOUNT_CROSSMNT] = "crossmnt",
	[BINO_SUBMOUNT_NOHIDE] = "nohide",
	[BINO_SUBMOUNT_NFSV4] = "nfsv4",
	[BINO_SUBMOUNT_SAME_CONTENT] = "same_content",
	[BINO_SUBMOUNT_HIDDEN] = "hidden",
	[BINO_SUBMOUNT_UNLISTED] = "unlisted",
};

BINO_PUBLIC const char *bino_submount_view_name(enum bino_submount_view view)
{
	return NAME_OF(submount_view_names, view);
}

static const char *const device_kind_names[] = {
	[BINO_DEVICE_LISTED] = "listed",
	[BINO_DEVICE_BTRFS_SUBVOL] = "btrfs_subvolume",
	[BINO_DEVICE_OVERLAY] = "overlayfs",
	[BINO_DEVICE_ANOMALY] = "anomaly",
};

BINO_PUBLIC const char *bino_device_kind_name(enum bino_device_kind kind)
{
	return NAME_OF(device_kind_names, kind);
}
