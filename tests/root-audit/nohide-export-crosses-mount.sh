#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# fex/spool mounted on its own path and exported itself with nohide, fex
# without crossmnt: clients of fex cross into spool (exports(5), nohide), so
# spool is a second client filesystem, as the find-based count assumes.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
spool=$fex/spool
mount -o "subvol=fex/spool" -- "$LOOP" "$spool"
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)" \
	"$spool *(rw,nohide,no_subtree_check)"
find_listing "$fex" "$OUT/listing"

audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" \
	"$(expected_counts "$fex" "$OUT/listing" "$spool")" "$(audit_counts json)"
check_eq "submount view" "$spool nohide 1" \
	"$(jq -r '.exports[0].submounts[] | "\(.mount.mountpoint) \(.view) \(.client_fs)"' "$OUT/json")"
umount -- "$spool"
finish
