#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Without CAP_SYS_ADMIN every file of a snapshot of a subvolume walked
# before collides and needs nlink, which the audit learns from the names
# its own walk meets: a file met once in its subvolume's whole walk has
# one name.  No directory is read a second time to count names.  Here the
# snapshot's directories are renamed e0, e1... (so that its reads can be
# told from src's), and a file linked twice in src keeps both names in the
# snapshot: the first walk opens each snapshot directory once, and the
# counts are find's.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300
top=$WORK/btrfs
btrfs_with_files "$top" src
files_into_dirs "$top/src" 10
ln -- "$top/src/d0/f001" "$top/src/f001-link"
mkdir -- "$top/snapshots"
snap=$top/snapshots/src.snap
btrfs -q subvolume snapshot -- "$top/src" "$snap"
for d in "$snap"/d*; do
	mv -- "$d" "$snap/e${d##*/d}"
done
dirs=$(find "$snap" -mindepth 1 -type d -name 'e*' | wc -l)
check_eq "snapshot directories e*" $((FILES / 10 + 1)) "$dirs"

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"
as_nobody
audit_then_traced "$top" 1 opens openat
# The first walk's opens: those before the top is opened again (by the
# second walk, which finds the examples' first paths and may read ahead
# into the snapshot before it stops).
check_eq "opens of the snapshot's directories by the first walk" "$dirs" \
	"$(awk -v top="openat(AT_FDCWD, \"$top\"," '
		index($0, top) && n > 0 { exit }
		/openat\([0-9]+, "e[0-9]+"/ { n++ }
		END { print n + 0 }' "$OUT/opens")"
check_eq "hardlink collisions (f001 and its link in each)" 4 \
	"$(jq -r '.exports[0].collisions.hardlink' "$OUT/json")"
finish
