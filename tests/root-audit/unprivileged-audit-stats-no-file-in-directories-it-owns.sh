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
files_into_dirs "$top/src" 10 # 21 directories: 21 probes before
as_nobody
chown -R -- nobody "$top/src"
chmod -R u+rwX,go-rwx -- "$top/src"
write_exports "$OUT/exports" "$top/src *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"

audit_then_traced "$top/src" 0 statx statx
check_eq "entries, unreadable" "$(wc -l <"$OUT/listing") 0" \
	"$(jq -r '.exports[0] | "\(.entries) \(.unreadable)"' "$OUT/json")"
check_eq "statx calls of fNNN" 0 "$(statx_of_names "$OUT/statx" 'f[0-9]{3}')"
finish
