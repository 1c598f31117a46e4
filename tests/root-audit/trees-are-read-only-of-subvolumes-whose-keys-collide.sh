#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# As root the audit learns which inodes have several names from subvolume
# trees instead of a stat per file, but reading a tree costs about what
# walking it does: its helper reads only the subvolumes whose inode numbers
# overlap those of the subvolumes before them, as only their entries can
# collide with keys met before.  Here src is walked first (its keys are new:
# not read) and its snapshot second (every key collides: read once); the
# counts are still find's, hard links included.  Its directories hold five
# entries each, where a tree read costs less than counting names.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300 # far more than LINKS_AFTER_STATS (64, lib/audit/audit.c)
top=$WORK/btrfs
# Subvolume ids 256, 257, 258: strace names 256 BTRFS_FIRST_FREE_OBJECTID.
btrfs_with_files "$top" empty src
# Five files a directory: with many more, counting names costs less than
# the tree (root-counts-names-where-directories-hold-many-entries).
files_into_dirs "$top/src" 5
echo linked >"$top/src/hl"
ln -- "$top/src/hl" "$top/src/hl2"
mkdir -- "$top/snapshots"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/src.snap"
src_id=$(btrfs inspect-internal rootid -- "$top/src")
snap_id=$(btrfs inspect-internal rootid -- "$top/snapshots/src.snap")
check_eq "subvolume ids" "257 258" "$src_id $snap_id"

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
# The audit, then the same with its ioctls counted.
audit_then_traced "$top" 1 ioctls ioctl

# The snapshot's count is also the control of src's: the same grep on the
# same trace must match.
check_eq "reads of src's tree (walked first, no key met before)" 0 \
	"$(tree_reads "$OUT/ioctls" "$src_id")"
(($(tree_reads "$OUT/ioctls" "$snap_id") >= 1)) ||
	fail "the snapshot's tree was not read: its $FILES files were stat'ed"
finish
