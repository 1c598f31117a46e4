#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# fex/spool mounted on its own path, fex exported with crossmnt: clients
# cross into the mount, so spool and everything below it is a second client
# filesystem.  The counts equal those computed from find with the client key
# (client filesystem, st_ino), where the client filesystem changes at spool.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
spool=$fex/spool
mount -o "subvol=fex/spool" -- "$LOOP" "$spool"
write_exports "$OUT/exports" "$fex *(rw,crossmnt,no_subtree_check)"
find_listing "$fex" "$OUT/listing"
expected=$(expected_counts "$fex" "$OUT/listing" "$spool")
check_eq "crossing changes the expectation" false \
	"$([[ $expected == "$(expected_counts "$fex" "$OUT/listing")" ]] && echo true || echo false)"

audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" "$expected" "$(audit_counts json)"
check_eq "submount view" "$spool crossmnt 1" \
	"$(jq -r '.exports[0].submounts[] | "\(.mount.mountpoint) \(.view) \(.client_fs)"' "$OUT/json")"
check_eq "client filesystems" 2 "$(jq -r '.exports[0].client_filesystems' "$OUT/json")"
umount -- "$spool"
finish
