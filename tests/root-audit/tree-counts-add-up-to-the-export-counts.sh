#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# In the tree, the export's row shows the loop, hardlink and plain counts
# computed from find's (st_dev, st_ino) listing, and the subvolume rows below
# it add up to exactly those counts: every colliding entry is counted at one
# node.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
find_listing "$fex" "$OUT/listing"
expected=$(expected_counts "$fex" "$OUT/listing")
read -r loop hardlink plain <<<"$expected"
((loop > 0 && hardlink > 0 && plain > 0)) || fail "fixture gives an empty class: $expected"

audit_tree text --exports "$OUT/exports" "$fex"
check_audit_rc text 1
tree_counts "$OUT/text" >"$OUT/counts"
check_eq "export row (loop hardlink plain)" "$expected" \
	"$(awk '$1 == 0 { print $3, $4, $5 }' "$OUT/counts")"
check_eq "sum of the subvolume rows (loop hardlink plain)" "$expected" \
	"$(awk '$1 > 0 { l += $3; h += $4; p += $5 } END { print l + 0, h + 0, p + 0 }' "$OUT/counts")"
check_eq "rows with counts that are no subvolume" "" \
	"$(awk '$1 > 0 && $2 !~ /^[0-9]+$/' "$OUT/counts")"
finish
