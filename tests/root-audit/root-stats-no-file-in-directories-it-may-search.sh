#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The audit stats a file only for nlink, where its key collides, and once
# per directory as a probe that its children can be stat'ed at all (a
# directory may be readable but not searchable: then they are counted
# unreadable).  Root (CAP_DAC_READ_SEARCH) searches every btrfs directory,
# so on a subvolume whose keys do not collide it stats no file: the walk's
# own stat of each directory is all.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=200
top=$WORK/btrfs
btrfs_with_files "$top" src
# 20 directories of 10 files each: 20 probes before.
(cd -- "$top/src" && for d in $(seq -f 'd%02g' 1 20); do
	mkdir -- "$d" && mv -- $(ls -- f* | head -n 10) "$d/"
done)
write_exports "$OUT/exports" "$top/src *(rw,no_subtree_check)"
find_listing "$top/src" "$OUT/listing"
expected=$(expected_counts "$top/src" "$OUT/listing")
check_eq "find's counts (loop hardlink plain)" "0 0 0" "$expected"

audit json --json --exports "$OUT/exports" "$top/src"
check_audit_rc json 0
check_eq "collisions (loop hardlink plain)" "$expected" "$(audit_counts json)"
check_eq "entries" "$(wc -l <"$OUT/listing")" \
	"$(jq -r '.exports[0].entries' "$OUT/json")"
audit_traced traced statx statx --json --exports "$OUT/exports" "$top/src"
check_eq "statx calls of fNNN" 0 "$(statx_of_names "$OUT/statx" 'f[0-9]{3}')"
finish
