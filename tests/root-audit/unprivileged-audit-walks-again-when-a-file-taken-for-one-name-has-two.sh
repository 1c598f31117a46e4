#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Unprivileged, the audit takes a file's first name in a subvolume for its
# only one (no stat) unless that inode number had several names in a
# subvolume walked before.  Here a link was made in snapshot a after it was
# taken from src, and b is a snapshot of a: f005 has one name in src, two
# in a and in b.  The walk meets a's f005 before a/sub/f005-late, which
# proves the guess wrong: a's f005 belongs to the hardlink class, as do the
# two names in b (whose f005 is stat'ed: a had two names for it), so the
# audit must count its first pass again.  The counts are find's: four
# entries of f005 in the hardlink class.
# shellcheck source=tests/root-audit/audit-lib.sh
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=50
top=$WORK/btrfs
btrfs_with_files "$top" src
mkdir -- "$top/src/sub" "$top/snapshots"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/a"
# f001 is the directory's first file, stat'ed as a probe: f005 is guessed.
ln -- "$top/snapshots/a/f005" "$top/snapshots/a/sub/f005-late"
btrfs -q subvolume snapshot -- "$top/snapshots/a" "$top/snapshots/b"

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"
find_listing "$top" "$OUT/listing"
check_two_links "$OUT/listing" "$top/snapshots/a/f005" "$top/snapshots/b/f005"
expected=$(expected_counts "$top" "$OUT/listing")
check_eq "find's hardlink count (f005 and f005-late in a and b)" 4 \
	"$(cut -d' ' -f2 <<<"$expected")"

as_nobody
audit json --json --exports "$OUT/exports" "$top"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" "$expected" "$(audit_counts json)"
finish
