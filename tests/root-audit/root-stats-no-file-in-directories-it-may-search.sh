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
files_into_dirs "$top/src" 10 # 21 directories: 21 probes before
write_exports "$OUT/exports" "$top/src *(rw,no_subtree_check)"

audit_then_traced "$top/src" 0 statx statx
check_eq "entries, unreadable" "$(wc -l <"$OUT/listing") 0" \
	"$(jq -r '.exports[0] | "\(.entries) \(.unreadable)"' "$OUT/json")"
check_eq "statx calls of fNNN" 0 "$(statx_of_names "$OUT/statx" 'f[0-9]{3}')"
finish
