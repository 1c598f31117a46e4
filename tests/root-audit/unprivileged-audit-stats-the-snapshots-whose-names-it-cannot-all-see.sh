#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Names counted in a snapshot's directories are its files' nlink only when
# every directory was read.  Of two snapshots of src, s1 has a tmpfs
# mounted on its directory cover/ and s2 a directory private/ that nobody
# may not read; each holds the second name of a file (f002, f003) that
# keeps two names everywhere, so a count of the names nobody can see would
# drop it from the hardlink class.  As nobody, the audit stats both
# snapshots' files instead, and its counts are those of find run as nobody,
# the tmpfs crossed (the export has crossmnt).
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300 # far more than LINKS_AFTER_STATS (64, lib/audit/audit.c)
top=$WORK/btrfs
btrfs_with_files "$top" src
mkdir -- "$top/src/cover" "$top/src/private"
ln -- "$top/src/f002" "$top/src/cover/f002-link"
ln -- "$top/src/f003" "$top/src/private/f003-link"
mkdir -- "$top/snapshots"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/s1"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/s2"
mount -t tmpfs -o size=1M,mode=0755 tmpfs "$top/snapshots/s1/cover"
chmod 0700 -- "$top/snapshots/s2/private"

write_exports "$OUT/exports" "$top *(rw,no_subtree_check,crossmnt)"
chmod go+r -- "$OUT/exports"
as_nobody
# find as nobody: it cannot read s2/private either.
find_listing_wrapped "$top" "$OUT/listing"
check_two_links "$OUT/listing" "$top/snapshots/s1/f002" "$top/snapshots/s2/f003"
expected=$(expected_counts "$top" "$OUT/listing" "$top/snapshots/s1/cover")

audit_files_stats "$top" "$expected"
# src is walked first: its fNNN need no nlink.  Both snapshots' do.
((FILES_STATS >= 2 * FILES)) ||
	fail "$FILES_STATS statx calls of fNNN names: fewer than the snapshots' $((2 * FILES)) files"
finish
