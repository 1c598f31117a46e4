/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The message of each enum bino_error, and the library's version. */
#include "internal.h"

#include <stddef.h>

static const char *const error_messages[] = {
	[BINO_OK] = "Success",
	[BINO_ERROR_STOP_ITERATION] = "Stop iteration",
	[BINO_ERROR_NO_MEMORY] = "Cannot allocate memory",
	[BINO_ERROR_INVALID_ARGUMENT] = "Invalid argument",
	[BINO_ERROR_OPEN_FAILED] = "Could not open",
	[BINO_ERROR_STAT_FAILED] = "Could not stat",
	[BINO_ERROR_READDIR_FAILED] = "Could not read directory",
	[BINO_ERROR_SUBVOLID_FAILED] = "Could not determine subvolume ID",
	[BINO_ERROR_FILE_HANDLE_FAILED] = "Could not get file handle",
	[BINO_ERROR_CHANGED_DURING_WALK] = "Directory changed during walk",
	[BINO_ERROR_MOUNTINFO_FAILED] = "Could not read mount table",
	[BINO_ERROR_EXPORTS_READ_FAILED] = "Could not read exports file",
	[BINO_ERROR_EXPORTS_SYNTAX] = "Syntax error in exports file",
	[BINO_ERROR_NOT_FOUND] = "No mount holds the path",
	[BINO_ERROR_MOUNTINFO_SYNTAX] = "Malformed mount table",
	[BINO_ERROR_MOUNT_FAILED] = "Could not mount",
	[BINO_ERROR_UMOUNT_FAILED] = "Could not unmount",
	[BINO_ERROR_SUBVOL_INFO_FAILED] = "Could not read subvolume details",
	[BINO_ERROR_SUBVOL_DELETED] = "Subvolume deleted",
};

BINO_PUBLIC const char *bino_strerror(enum bino_error err)
{
	size_t i = (size_t)err;

	if (i >= sizeof(error_messages) / sizeof(error_messages[0]) ||
	    !error_messages[i])
		return "Unknown error";
	return error_messages[i];
}

BINO_PUBLIC const char *bino_version(void)
{
	return BINO_VERSION_STRING;
}
