/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * name_to_handle_at() into a buffer that holds any handle (MAX_HANDLE_SZ),
 * so that its users read the handle's type and bytes and never size it.
 */
#include "fhandle.h"

int bino__fhandle_at(int dirfd, const char *name, int at_flags,
		     union bino__fhandle *ret)
{
	int mount_id;

	ret->handle.handle_bytes = MAX_HANDLE_SZ;
	return name_to_handle_at(dirfd, name, &ret->handle, &mount_id,
				 at_flags);
}
