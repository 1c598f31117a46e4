/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The btrfs numbers the library matches on, each named once: the inode
 * numbers of subvolume roots and snapshot placeholders (from the UAPI
 * <linux/btrfs_tree.h>), and the file-handle types and fid layout btrfs
 * gives name_to_handle_at() and knfsd, which no UAPI header carries (the
 * kernel's include/linux/exportfs.h and fs/btrfs/export.h).
 */
#ifndef BINO_BTRFSCONST_H
#define BINO_BTRFSCONST_H

/*
 * BTRFS_FIRST_FREE_OBJECTID (256): the inode of every subvolume root.
 * BTRFS_EMPTY_SUBVOL_DIR_OBJECTID (2): the empty directory a snapshot holds
 * where its source had a nested subvolume (a placeholder).
 * BTRFS_FS_TREE_OBJECTID (5): the top-level subvolume.
 */
#include <linux/btrfs_tree.h>

/* Handle types (enum fid_type): without, with parent, with parent's root. */
#define FILEID_BTRFS_WITHOUT_PARENT 0x4d
#define FILEID_BTRFS_WITH_PARENT 0x4e
#define FILEID_BTRFS_WITH_PARENT_ROOT 0x4f

/* struct btrfs_fid, packed: u64 objectid, u64 root objectid, u32 generation. */
#define BTRFS_FID_OBJECTID_OFFSET 0
#define BTRFS_FID_ROOT_OFFSET 8
#define BTRFS_FID_GEN_OFFSET 16
#define BTRFS_FID_MIN_SIZE 20 /* objectid, root objectid, generation */

#endif
