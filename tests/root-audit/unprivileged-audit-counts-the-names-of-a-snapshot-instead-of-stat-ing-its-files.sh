#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Without CAP_SYS_ADMIN the audit cannot read subvolume trees, and every
# file of a snapshot of a subvolume walked before collides and needs nlink.
# Rather than stat each one, it counts names (a non-directory's names all
# lie in its subvolume, so their count is nlink).  Here src is walked
# first, then its snapshot, in which a link was added and another removed
# after the snapshot was taken (so neither is in the hardlink class: each
# has one name on one side), and a third kept (in it, twice on each side).
# The added link's first name, f005, is taken for its only one when the
# walk meets it (f001, the directory's first file, is its probe stat), and
# its second proves that wrong: the audit walks again without guessing, a
# helper counting the snapshot's names.  The counts
# are find's, and the snapshot's files are not stat'ed one by one.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300 # far more than LINKS_AFTER_STATS (64, lib/audit/audit.c)
top=$WORK/btrfs
btrfs_with_files "$top" src
mkdir -- "$top/src/sub"
echo linked >"$top/src/hl"
ln -- "$top/src/hl" "$top/src/sub/hl2"
echo kept >"$top/src/keep"
ln -- "$top/src/keep" "$top/src/sub/keep2"
mkdir -- "$top/snapshots"
snap=$top/snapshots/src.snap
btrfs -q subvolume snapshot -- "$top/src" "$snap"
ln -- "$snap/f005" "$snap/sub/f005-late" # two names in the snapshot only
rm -- "$snap/sub/hl2"                    # one name left in the snapshot

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"
find_listing "$top" "$OUT/listing"
expected=$(expected_counts "$top" "$OUT/listing")
# Loops: the two subvolume roots (inode 256, as the top's); plain: every
# entry, the top's two directories included (inodes 256 and 257, as each
# subvolume's root and f001).
check_eq "find's counts (loop hardlink plain)" "2 4 $((2 * (FILES + 7)))" \
	"$expected"

as_nobody
audit_files_stats "$top" "$expected"
# Both copies of each fNNN collide; src's are met first and need no
# nlink.  Stat'ing the snapshot's would be FILES calls; at most
# LINKS_AFTER_STATS are made before the walk waits for the count, plus one
# probe per directory.
((FILES_STATS < 100)) ||
	fail "$FILES_STATS statx calls of fNNN names: the snapshot's files were stat'ed"
# The control of that count: nobody owns no directory here, so the audit
# probes src and the snapshot with a stat of f001 each, and the same grep
# counts them.
check_probes_counted "$OUT/statx" "$top" 'f[0-9]{3}'
finish
