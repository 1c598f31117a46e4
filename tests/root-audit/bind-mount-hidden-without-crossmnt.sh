#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# spool/dir/sub bind-mounted on spool/dir/loop, fex exported without
# crossmnt: clients do not cross and see the empty directory underneath.
# The counts equal those computed from find before the mount was made, when
# the tree was what clients see now.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
spool=$fex/spool
find_listing "$fex" "$OUT/listing-before"
mount --bind -- "$spool/dir/sub" "$spool/dir/loop"
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"

audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" \
	"$(expected_counts "$fex" "$OUT/listing-before")" "$(audit_counts json)"
check_eq "entries" "$(wc -l <"$OUT/listing-before")" "$(jq -r '.exports[0].entries' "$OUT/json")"
check_eq "submount view" "$spool/dir/loop hidden 0" \
	"$(jq -r '.exports[0].submounts[] | "\(.mount.mountpoint) \(.view) \(.client_fs)"' "$OUT/json")"
umount -- "$spool/dir/loop"
finish
