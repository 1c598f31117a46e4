/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What this process may do without being asked: its effective capabilities,
 * so that work a permission check makes needless is skipped.
 */
#ifndef BINO_CREDS_H
#define BINO_CREDS_H

#include <stdbool.h>

/* Whether capability @cap (CAP_*) is in this thread's effective set. */
bool bino__capable(int cap);

/*
 * Whether this process is in the initial user namespace, where a
 * capability holds for every inode (in another, only for inodes whose
 * owner and group it maps).  False when that cannot be told.
 */
bool bino__in_initial_userns(void);

#endif
