#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Unprivileged, the audit takes a file's first name in a subvolume for its
# only one; a directory it cannot read, met after that guess, may hide the
# file's other name, so the guess must be counted again.  Here a is a
# snapshot of src, f005 gets a second name only in a, inside private/, a
# 0700 directory made after the files (so the walk meets f005 first), and
# b is a snapshot of a.  Run as nobody, neither find nor the audit sees
# private/'s names, yet f005 has two links in a and b: the collision counts
# must be those of find run as nobody, f005 of a and of b in the hardlink
# class.  (Without counting again, a's f005 keeps its guess of one name and
# the counts are wrong; the neighbouring test's fixture only costs stats.)
# shellcheck source=tests/root-audit/audit-lib.sh
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=50
top=$WORK/btrfs
btrfs_with_files "$top" src
mkdir -- "$top/snapshots"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/a"
mkdir -m 0700 -- "$top/snapshots/a/private" # after f001..f050 in a's order
ln -- "$top/snapshots/a/f005" "$top/snapshots/a/private/f005-late"
btrfs -q subvolume snapshot -- "$top/snapshots/a" "$top/snapshots/b"

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"
as_nobody
find_listing_wrapped "$top" "$OUT/listing"
check_two_links "$OUT/listing" "$top/snapshots/a/f005" "$top/snapshots/b/f005"
grep -qF -- "/private/f005-late" "$OUT/listing" && fail "find as nobody sees into private/"
expected=$(expected_counts "$top" "$OUT/listing")
check_eq "find's hardlink count (f005 of a and of b)" 2 "$(cut -d' ' -f2 <<<"$expected")"

audit json --json --exports "$OUT/exports" "$top"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" "$expected" "$(audit_counts json)"
finish
