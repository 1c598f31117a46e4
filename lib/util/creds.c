/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The process's privileges, read from the kernel (capget(2) and
 * /proc/self/uid_map) rather than guessed from the user id: root in a
 * container, or a program given a file capability, is privileged as the
 * kernel sees it, whatever its uid.
 */
#include "creds.h"

#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

bool bino__capable(int cap)
{
	struct __user_cap_header_struct header = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (cap < 0 || CAP_TO_INDEX(cap) >= _LINUX_CAPABILITY_U32S_3 ||
	    syscall(SYS_capget, &header, data) != 0)
		return false;
	return data[CAP_TO_INDEX(cap)].effective & CAP_TO_MASK(cap);
}

bool bino__in_initial_userns(void)
{
	unsigned long inside, outside, count;
	char map[128], *newline;
	ssize_t len;
	int fd = open("/proc/self/uid_map", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	len = read(fd, map, sizeof(map) - 1);
	close(fd);
	if (len <= 0)
		return false;
	map[len] = '\0';
	/* One line mapping every id to itself (columns padded with spaces). */
	newline = strchr(map, '\n');
	if (!newline || newline[1] != '\0' ||
	    sscanf(map, "%lu %lu %lu", &inside, &outside, &count) != 3)
		return false;
	return inside == 0 && outside == 0 && count == 4294967295UL;
}
