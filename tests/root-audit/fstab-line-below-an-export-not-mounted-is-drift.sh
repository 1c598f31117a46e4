#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A btrfs line of the server fstab for a mount point at or below an exported
# path that is not mounted now is a finding (clients get the plain directory
# instead), named by file and line; once mounted it is not; lines outside
# the exports and other filesystem types are never reported.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

uuid=$(blkid -p -s UUID -o value "$LOOP")
spool_id=$(btrfs subvolume list "$MNT" | awk '$NF == "fex/spool" { print $2 }')
write_exports "$OUT/exports" "$MNT/fex 127.0.0.1(rw,no_subtree_check)"
printf '%s\n' "# server fstab" \
	"UUID=$uuid $MNT/fex/spool btrfs subvolid=$spool_id 0 0" \
	"UUID=$uuid $WORK/elsewhere btrfs subvolid=$spool_id 0 0" \
	"tmpfs $MNT/fex/docs tmpfs defaults 0 0" >"$OUT/fstab"

audit unmounted --json --exports "$OUT/exports" --fstab "$OUT/fstab" "$MNT/fex"
check_audit_rc unmounted 1
check_eq "the spool line is drift" "$OUT/fstab 2 UUID=$uuid $MNT/fex/spool" \
	"$(jq -r '.fstab_drift[] | "\(.file) \(.line) \(.source) \(.mountpoint)"' "$OUT/unmounted")"
audit unmounted-text --exports "$OUT/exports" --fstab "$OUT/fstab" "$MNT/fex"
grep -qxF "fstab drift: $OUT/fstab:2: UUID=$uuid on $MNT/fex/spool is below an export but not mounted; run mount -a" \
	"$OUT/unmounted-text" || fail "the text report does not name the fstab line"

mount -o "subvolid=$spool_id" "$LOOP" "$MNT/fex/spool"
audit mounted --json --exports "$OUT/exports" --fstab "$OUT/fstab" "$MNT/fex"
umount "$MNT/fex/spool"
check_eq "mounted: no fstab drift" 0 "$(jq '.fstab_drift | length' "$OUT/mounted")"
finish
