#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Subvolumes that are copies of each other (cp -a into fresh subvolumes:
# the same inode numbers, no snapshot relation) collide key for key, but
# nothing says so before the walk meets them.  Without CAP_SYS_ADMIN the
# audit stats the first entries of such a subvolume that collide; after
# LINKS_AFTER_STATS (64) it counts the names in the subvolume's
# directories instead, and has its helper count those of every subvolume
# listed after it ahead of the walk.  Here a is walked first and b, c, d
# are its copies, hard link included: the counts are find's, and far fewer
# than the copies' files are stat'ed.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300 # far more than LINKS_AFTER_STATS (64, lib/audit/audit.c)
top=$WORK/btrfs
btrfs_with_files "$top" a
ln -- "$top/a/f001" "$top/a/f001-link"
for copy in b c d; do
	btrfs -q subvolume create -- "$top/$copy"
	cp -a -- "$top/a/." "$top/$copy/"
done

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"
find_listing "$top" "$OUT/listing"
expected=$(expected_counts "$top" "$OUT/listing")
# Loops: the four roots (inode 256, as the top's); hardlink: f001 and its
# link in each; plain: every entry (each copy's root, FILES files and
# link), and the top's root.
check_eq "find's counts (loop hardlink plain)" "4 8 $((4 * (FILES + 2) + 1))" \
	"$expected"

as_nobody
audit_files_stats "$top" "$expected"
# Stat'ing the copies' fNNN would be 3 * FILES calls: the first copy's
# until LINKS_AFTER_STATS and, racing the helper, as many of each other
# at most, plus a probe per directory.
((FILES_STATS < FILES)) ||
	fail "$FILES_STATS statx calls of fNNN names: the copies' files were stat'ed"
# The control of that count: nobody owns no directory here, so the audit
# probes a and each copy with a stat of f001, and the same grep counts them.
check_probes_counted "$OUT/statx" "$top" 'f[0-9]{3}'
finish
