#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# fex/spool mounted on its own path: without the tree (--pairs, --raw,
# --list) its subvolume row and its mount row are not both "spool": the
# subvolume is named inside its filesystem as mount -o subvol= and findmnt's
# [/FSROOT] name it (subvol=/fex/spool, as btrfs subvolume show gives its
# path), the mount by its path below the export; no two rows share a name.
source "$(dirname -- "$0")/audit-lib.sh"
spool_mounted_crossmnt
fex=$FEX
spool=$SPOOL
spool_fs_path=/$(btrfs subvolume show -- "$spool" | head -n 1)

audit_tree pairs --exports "$OUT/exports" "$fex"
check_audit_rc pairs 1
check_eq "the rows of spool (TYPE NAME)" "subvolume subvol=$spool_fs_path|mount spool" \
	"$(tree_rows "$OUT/pairs" | awk -F'\t' -v id="$ID_SPOOL" \
		-v mid="$(findmnt -n -o ID --mountpoint "$spool")" \
		'($2 == "subvolume" && $3 == id) || ($2 == "mount" && $3 == mid) { print $2, $10 }' |
		paste -sd'|')"
for mode in --raw --list; do
	audit "names$mode" "$mode" -n -o NAME --exports "$OUT/exports" "$fex"
	check_eq "$mode: names given twice" "" "$(sed 's/ *$//' "$OUT/names$mode" | sort | uniq -d)"
done
finish
