#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The tree that opens the text report names every subvolume of the classic
# layout once, each under the subvolume btrfs-progs gives as its parent (fex,
# whose parent is the top level, under the export), snapshots naming the
# source btrfs subvolume show gives; spool's three snapshots and inner hang
# from spool, which hangs from fex.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
audit_tree text --exports "$OUT/exports" "$fex"
check_audit_rc text 1

btrfs_subvols "$fex" "$fex/spool" "$fex/spool/inner" "$fex/spool/.snapshot/s1" \
	"$fex/spool/.snapshot/s2" "$fex/spool/.snapshot/s3" |
	awk -v top="$ID_TOP" '{ if ($2 == top) $2 = "export"; print }' |
	sort >"$OUT/expected"
tree_subvols "$OUT/text" | sort >"$OUT/actual"
check_files_eq "subvolume rows (id, row above, snapshot of)" "$OUT/expected" "$OUT/actual"

check_eq "the export row comes first" "$fex" "$(tree_rows "$OUT/text" | head -n 1 | cut -f10)"
check_eq "spool's children" "$ID_INNER $ID_S1 $ID_S2 $ID_S3" \
	"$(tree_subvols "$OUT/text" | awk -v p="$ID_SPOOL" '$2 == p { print $1 }' | sort -n | paste -sd' ')"
check_eq "snapshots of spool" "$ID_S1 $ID_S2 $ID_S3" \
	"$(tree_subvols "$OUT/text" | awk -v p="$ID_SPOOL" '$3 == p { print $1 }' | sort -n | paste -sd' ')"
finish
