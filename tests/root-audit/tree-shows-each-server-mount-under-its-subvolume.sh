#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Server mounts in the tree: fex/spool mounted on its own path hangs from
# spool's row, and a tmpfs mounted on fex/docs/m from fex's row (the
# subvolume holding its mount point), each named by its path below the
# export and with the mount ID findmnt gives.
# Exported with crossmnt both are crossed, each into a client filesystem of
# its own; without it spool's mount shows the same content in client
# filesystem 0 and the tmpfs is hidden.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
spool=$fex/spool
mkdir -- "$fex/docs/m"
mount -o "subvol=fex/spool" -- "$LOOP" "$spool"
mount -t tmpfs -- tmpfs "$fex/docs/m"
spool_id=$(findmnt -n -o ID --mountpoint "$spool")
tmpfs_id=$(findmnt -n -o ID --mountpoint "$fex/docs/m")

# mount_rows FILE: "MOUNT_ID ROW_ABOVE VERDICT" per mount row, ROW_ABOVE
# being the subvolume ID of the row it hangs from.
mount_rows() {
	tree_rows "$1" | awk -F'\t' '$2 == "mount" { print $3, $4, $11 }' | sort
}
# mount_client_fs FILE: the CLIENT-FS of each mount row, in order.
mount_client_fs() {
	tree_rows "$1" | awk -F'\t' '$2 == "mount" { print $9 }' | sort -n | paste -sd' '
}

write_exports "$OUT/crossmnt" "$fex *(rw,crossmnt,no_subtree_check)"
audit_tree crossed --exports "$OUT/crossmnt" "$fex"
check_audit_rc crossed 1
printf '%s\n' "$spool_id $ID_SPOOL btrfs mount, crossed by clients (crossmnt), own fs on clients" \
	"$tmpfs_id $ID_FEX tmpfs mount, crossed by clients (crossmnt), own fs on clients" |
	sort >"$OUT/expected-crossed"
mount_rows "$OUT/crossed" >"$OUT/actual-crossed"
check_files_eq "mount rows with crossmnt" "$OUT/expected-crossed" "$OUT/actual-crossed"
# Client filesystem 0 is the export's; each crossed mount has its own.
check_eq "client filesystems of the crossed mounts" "1 2" "$(mount_client_fs "$OUT/crossed")"
# A mount row is named by its path below the export, not by its ID.
check_eq "mount row names" "docs/m spool" \
	"$(tree_rows "$OUT/crossed" | awk -F'\t' '$2 == "mount" { print $10 }' | sort | paste -sd' ')"

write_exports "$OUT/plain" "$fex *(rw,no_subtree_check)"
audit_tree plain --exports "$OUT/plain" "$fex"
check_audit_rc plain 1
printf '%s\n' "$spool_id $ID_SPOOL btrfs mount, not crossed: clients see the same content" \
	"$tmpfs_id $ID_FEX tmpfs mount, not crossed: hidden from clients" | sort >"$OUT/expected-plain"
mount_rows "$OUT/plain" >"$OUT/actual-plain"
check_files_eq "mount rows without crossmnt" "$OUT/expected-plain" "$OUT/actual-plain"
umount -- "$fex/docs/m" "$spool"
finish
