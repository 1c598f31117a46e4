#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Twelve snapshots of inner made in fex/isnap: in the tree, fex shows the
# first and last three and one row "6 more snapshots" whose counts make
# the rows add up to the export's counts still; --full-tree names all twelve
# once, under fex, each a snapshot of inner.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
mkdir -- "$fex/isnap"
for i in $(seq -w 1 12); do
	btrfs -q subvolume snapshot -- "$fex/spool/inner" "$fex/isnap/i$i" >/dev/null
done
btrfs subvolume list "$MNT" | awk '/ path fex\/isnap\// { print $2 }' | sort >"$OUT/isnap-ids"
check_eq "snapshots made" 12 "$(wc -l <"$OUT/isnap-ids")"
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
audit json --json --exports "$OUT/exports" "$fex"
expected=$(jq -r '.exports[0].collisions | "\(.loop) \(.hardlink) \(.plain)"' "$OUT/json")

audit_tree folded --exports "$OUT/exports" "$fex"
check_audit_rc folded 1
check_eq "snapshots of inner shown" 6 \
	"$(tree_subvols "$OUT/folded" | awk -v i="$ID_INNER" '$3 == i' | wc -l)"
check_eq "folded row (depth, name)" "2 6 more snapshots" \
	"$(tree_rows "$OUT/folded" | awk -F'\t' '$2 == "folded" { print $1, $10 }')"
tree_counts "$OUT/folded" >"$OUT/counts"
check_eq "sum of the rows below the export" "$expected" \
	"$(awk '$1 > 0 { l += $3; h += $4; p += $5 } END { print l + 0, h + 0, p + 0 }' "$OUT/counts")"

audit_tree full --full-tree --exports "$OUT/exports" "$fex"
check_audit_rc full 1
tree_subvols "$OUT/full" | awk -v i="$ID_INNER" -v f="$ID_FEX" '$3 == i && $2 == f { print $1 }' |
	sort >"$OUT/full-ids"
check_files_eq "--full-tree: every snapshot of inner, under fex" "$OUT/isnap-ids" "$OUT/full-ids"
check_eq "--full-tree: no folded row" "" "$(grep -F 'more snapshots' "$OUT/full" || true)"
finish
