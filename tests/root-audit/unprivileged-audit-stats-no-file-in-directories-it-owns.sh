#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Without privilege the audit probes each directory with the stat of one
# child (a directory may be readable but not searchable), except where it
# surely may search: a directory's owner searches it when its owner x bit
# is set, whatever an ACL says of others.  A user auditing a subvolume of
# its own whose keys do not collide stats no file.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=200
top=$WORK/btrfs
btrfs_with_files "$top" src
# 20 directories of 10 files each: 20 probes before.
(cd -- "$top/src" && for d in $(seq -f 'd%02g' 1 20); do
	mkdir -- "$d" && mv -- $(ls -- f* | head -n 10) "$d/"
done)
as_nobody
chown -R -- nobody "$top/src"
chmod -R u+rwX,go-rwx -- "$top/src"
write_exports "$OUT/exports" "$top/src *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"
find_listing "$top/src" "$OUT/listing"
expected=$(expected_counts "$top/src" "$OUT/listing")
check_eq "find's counts (loop hardlink plain)" "0 0 0" "$expected"

audit json --json --exports "$OUT/exports" "$top/src"
check_audit_rc json 0
check_eq "collisions (loop hardlink plain)" "$expected" "$(audit_counts json)"
check_eq "entries, unreadable" "$(wc -l <"$OUT/listing") 0" \
	"$(jq -r '.exports[0] | "\(.entries) \(.unreadable)"' "$OUT/json")"
audit_traced traced statx statx --json --exports "$OUT/exports" "$top/src"
check_eq "statx calls of fNNN" 0 "$(statx_of_names "$OUT/statx" 'f[0-9]{3}')"
finish
