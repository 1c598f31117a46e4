#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# subvol_root is true exactly for the roots of subvolumes and snapshots
# (the top level included), not for the placeholders snapshots hold.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

# btrfs subvolume list prints paths relative to the top level, mounted here.
{
	echo "$MNT"
	btrfs subvolume list "$MNT" | sed -n 's/^ID [0-9]* gen [0-9]* top level [0-9]* path //p' |
		sed "s|^|$MNT/|"
} | sort >"$OUT/expected"
# Cross-check: a subvolume root is the directory with inode 256.
find "$MNT" -type d -inum 256 | sort >"$OUT/inum256"
check_files_eq "subvolume list vs directories with inode 256" "$OUT/expected" "$OUT/inum256"
check_eq "number of subvolume roots (top, fex, spool, inner, s1, s2, s3)" 7 \
	"$(wc -l <"$OUT/expected")"

walk json --json "$MNT"
check_walk_rc json 0
jq -r 'select(.event == "entry" and .subvol_root == true) | .path' "$OUT/json" |
	sort >"$OUT/actual"
check_files_eq "entries with subvol_root true" "$OUT/expected" "$OUT/actual"
check_eq "entries whose subvol_root is not a boolean" "" \
	"$(jq -r 'select(.event == "entry" and (.subvol_root | type) != "boolean") | .path' "$OUT/json")"

finish
