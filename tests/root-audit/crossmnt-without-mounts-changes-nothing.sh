#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# crossmnt only matters for server mounts: with none below the export, its
# subvolumes stay in the export's client filesystem and the counts equal
# those computed from find, as without crossmnt.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,crossmnt,no_subtree_check)"
find_listing "$fex" "$OUT/listing"

audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" "$(expected_counts "$fex" "$OUT/listing")" \
	"$(audit_counts json)"
check_eq "crossmnt applied" true "$(jq -r '.exports[0].crossmnt' "$OUT/json")"
check_eq "client filesystems" 1 "$(jq -r '.exports[0].client_filesystems' "$OUT/json")"
check_eq "submounts" 0 "$(jq -r '.exports[0].submounts | length' "$OUT/json")"
finish
