/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Inodes with more than one name in a btrfs subvolume, counted by reading
 * its directories: the unprivileged counterpart of nlink_tree.c's tree
 * read.
 */
#ifndef BINO_NLINK_SCAN_H
#define BINO_NLINK_SCAN_H

#include <stdbool.h>

#include "btrfsino.h"
#include "inoset.h"

/*
 * Add to @linked (empty) every non-directory inode that has two names or
 * more in the subvolume whose root directory is @root_fd, reading each of
 * its directories once (no privilege needed beyond reading them).  Nested
 * subvolumes are not entered.  @stop, if not NULL, is read (atomically)
 * between directories: once true, the scan ends with ECANCELED.
 *
 * The count is nlink only when every name was seen, so the scan fails
 * rather than answer from part of the subvolume, @linked left empty and
 * the cause in *@errnum: BINO_ERROR_OPEN_FAILED, _STAT_FAILED or
 * _READDIR_FAILED for a directory that could not be read (EACCES...),
 * _READDIR_FAILED with EXDEV when a mount covers one of its directories
 * (the names below are hidden) or EPROTO for an entry of unknown type,
 * _OPEN_FAILED with ELOOP deeper than the scan keeps fds for,
 * _INVALID_ARGUMENT when @root_fd is not a subvolume's root,
 * _STOP_ITERATION (ECANCELED) when stopped, _NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino__linkscan_set(int root_fd, const bool *stop,
				   struct inoset *linked, int *errnum);

#endif
