#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Exporting fex without crossmnt and without server mounts below it: every
# subvolume is part of one client filesystem, and the loop, hardlink and plain
# counts are exactly those computed from find's (st_dev, st_ino) listing.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
find_listing "$fex" "$OUT/listing"
expected=$(expected_counts "$fex" "$OUT/listing")

audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" "$expected" "$(audit_counts json)"
check_eq "exported" true "$(jq -r '.exports[0].exported' "$OUT/json")"
check_eq "client filesystems" 1 "$(jq -r '.exports[0].client_filesystems' "$OUT/json")"
check_eq "entries" "$(wc -l <"$OUT/listing")" "$(jq -r '.exports[0].entries' "$OUT/json")"
# The fixture must make every class non-empty, or this proves little.
read -r loop hardlink plain <<<"$expected"
((loop > 0 && hardlink > 0 && plain > 0)) || fail "fixture gives an empty class: $expected"
check_eq "verdict" false "$(jq -r '.exports[0].verdict.safe' "$OUT/json")"
finish
