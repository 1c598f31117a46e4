#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# fex/spool mounted (subvol=fex/spool) on its own path, exported without
# crossmnt: clients do not cross into the mount but see the same subvolume
# underneath, so it stays in fex's client filesystem and the counts equal
# those computed from find as if nothing were mounted.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
spool=$fex/spool
mount -o "subvol=fex/spool" -- "$LOOP" "$spool"
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
find_listing "$fex" "$OUT/listing"

audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" "$(expected_counts "$fex" "$OUT/listing")" \
	"$(audit_counts json)"
check_eq "submount view" "$spool same_content 0" \
	"$(jq -r '.exports[0].submounts[] | "\(.mount.mountpoint) \(.view) \(.client_fs)"' "$OUT/json")"
check_eq "client filesystems" 1 "$(jq -r '.exports[0].client_filesystems' "$OUT/json")"
# The spool subvolume is reported as separately mounted on the server.
check_eq "server mounts of spool" "$spool" \
	"$(jq -r --argjson id "$ID_SPOOL" '.exports[0].subvolumes[] | select(.id == $id) | .server_mounts[].mountpoint' "$OUT/json")"
umount -- "$spool"
finish
