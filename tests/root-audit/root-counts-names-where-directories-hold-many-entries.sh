#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# As root the audit may learn nlink from a subvolume's tree or by counting
# the names in its directories (as without CAP_SYS_ADMIN); the tree read
# copies a few items per entry, the count pays per directory, so where
# directories hold many entries (here src's 302 names in one) the count
# costs less.  Runs of inode items spread over the subvolume's numbers tell
# how many of its inodes are directories.  The snapshot's names are then
# counted: no whole read of its tree, no stat of its files, and the counts
# are find's, hard link included.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300 # far more than LINKS_AFTER_STATS (64, lib/audit/audit.c)
top=$WORK/btrfs
btrfs_with_files "$top" empty src
echo linked >"$top/src/hl"
ln -- "$top/src/hl" "$top/src/hl2"
mkdir -- "$top/snapshots"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/src.snap"
snap_id=$(btrfs inspect-internal rootid -- "$top/snapshots/src.snap")

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
audit_then_traced "$top" 1 trace ioctl,statx

check_eq "whole reads of the snapshot's tree" 0 \
	"$(tree_reads "$OUT/trace" "$snap_id")"
files_stats=$(statx_of_names "$OUT/trace" 'f[0-9]{3}')
((files_stats < 100)) ||
	fail "$files_stats stats of the $FILES files: their names were not counted"
# The controls of both counts: the same grep finds the searches of the
# snapshot's runs of inode numbers (how many of its inodes are
# directories), and as nobody, who owns none of the directories, the same
# audit probes src and the snapshot with a stat of f001 each.
(($(tree_searches "$OUT/trace" "$snap_id" | wc -l) >= 1)) ||
	fail "control: no search of the snapshot's tree in the trace: tree_reads does not match strace's lines"
control_probes "$top"
finish
