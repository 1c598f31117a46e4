#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# spool/dir/sub bind-mounted on spool/dir/loop, fex exported with crossmnt:
# clients cross into the bind mount, a client filesystem of its own, so its
# entries do not collide with their originals in dir/sub; the counts equal
# those computed from find with the client filesystem changing at dir/loop.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
spool=$fex/spool
mount --bind -- "$spool/dir/sub" "$spool/dir/loop"
write_exports "$OUT/exports" "$fex *(rw,crossmnt,no_subtree_check)"
find_listing "$fex" "$OUT/listing"

audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" \
	"$(expected_counts "$fex" "$OUT/listing" "$spool/dir/loop")" "$(audit_counts json)"
check_eq "submount view" "$spool/dir/loop crossmnt 1" \
	"$(jq -r '.exports[0].submounts[] | "\(.mount.mountpoint) \(.view) \(.client_fs)"' "$OUT/json")"
umount -- "$spool/dir/loop"
finish
