/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Inodes with more than one name in a btrfs subvolume, read from its tree. */
#ifndef BINO_NLINK_TREE_H
#define BINO_NLINK_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "btrfsino.h"
#include "inoset.h"

/*
 * Add to @set (empty) every inode with more than one name of subvolume
 * @subvolid, reading from @fd, a directory in that subvolume; on failure
 * @set is left empty (BINO_ERROR_INVALID_ARGUMENT with EXDEV: @fd is in
 * another subvolume; BINO_ERROR_SUBVOLID_FAILED;
 * BINO_ERROR_SUBVOL_INFO_FAILED when the tree search fails, EPERM
 * unprivileged, ENOTTY off btrfs; BINO_ERROR_NO_MEMORY).
 */
BINO_WARN_UNUSED
enum bino_error bino__btrfs_multilinked_set(int fd, uint64_t subvolid,
					    struct inoset *set, int *errnum);

/*
 * Whether this process may search btrfs trees (CAP_SYS_ADMIN in its
 * effective set): if not, nlink can only come from stat.
 */
bool bino__btrfs_can_search_trees(void);

/* Reads subvolumes' inodes with several names ahead, in a thread. */
struct bino__links_ahead;

/*
 * List the subvolume whose root is @path (a directory on the btrfs of
 * device @dev, as in struct bino_key) and those below it, and start
 * reading them: with CAP_SYS_ADMIN, from their trees (or by counting the
 * names in their directories where these hold many entries), those that
 * share at least @min_shared inode numbers with the subvolumes listed
 * before them, as only those can have so many keys met before; without
 * it, by counting
 * the names in their directories, the snapshots and sources of subvolumes
 * listed before them, and every subvolume after one the caller waited for.
 * BINO_ERROR_OPEN_FAILED, _SUBVOL_INFO_FAILED (not btrfs, not a subvolume's
 * root) or _NO_MEMORY.
 */
BINO_WARN_UNUSED
enum bino_error bino__links_ahead_create(const char *path, uint64_t dev,
					 uint64_t min_shared,
					 struct bino__links_ahead **ret);
/* Stop the thread and release everything; NULL is accepted. */
void bino__links_ahead_destroy(struct bino__links_ahead *ahead);
/*
 * What bino__links_ahead_take() did.  The values are fixed: callers
 * switched on them before they had names.
 */
enum links_ahead_taken {
	/* The subvolume is not among those listed. */
	LINKS_AHEAD_NOT_LISTED = -1,
	/* Not read ahead (not worth it, the read failed, or taken before): stat. */
	LINKS_AHEAD_NOT_READ = 0,
	/* Moved into *@ret. */
	LINKS_AHEAD_TAKEN = 1,
	/* Not read yet and the caller did not wait: stat, and ask again. */
	LINKS_AHEAD_NOT_YET = 2,
};

/*
 * Take the inodes with several names of subvolume @subvolid of device @dev
 * into *@ret (empty before, the caller's to clear then).  With @wait, they
 * are read here if the helper has not started, and else the caller reads
 * others while the helper reads them; without, LINKS_AHEAD_NOT_YET while
 * they are not read.
 */
enum links_ahead_taken bino__links_ahead_take(struct bino__links_ahead *ahead,
					      uint64_t dev, uint64_t subvolid,
					      bool wait, struct inoset *ret);

#endif
