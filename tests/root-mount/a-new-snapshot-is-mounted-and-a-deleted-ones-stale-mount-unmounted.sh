#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# After a first run: a new snapshot below the export is mounted by the next
# run (and nothing else is); a snapshot deleted the way a snapshot job does
# (btrfs subvolume delete) loses the mount on its path with it, and a
# second mount of it below the export, left showing "//deleted", is
# unmounted with "umount PATH: subvolume N no longer exists".  Then a run
# does nothing.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0
uuid=$(blkid -p -s UUID -o value -- "$LOOP")

btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/s4"
s4=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/s4")
mount_cmd new --exports "$EXPORTS"
check_mount_rc new 0
check_eq "the new snapshot is mounted, alone" \
	"mount UUID=$uuid subvolid=$s4 on $FEX/spool/.snapshot/s4" "$(action_lines "$OUT/new")"
mountpoint -q -- "$FEX/spool/.snapshot/s4" || fail "s4 is not a mount point"

# A second mount of s1 below the export, then s1 deleted by path.
s1=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/s1")
mkdir -- "$FEX/elsewhere"
mount -t btrfs -o "subvolid=$s1" "$LOOP" "$FEX/elsewhere"
btrfs -q subvolume delete "$FEX/spool/.snapshot/s1"
if mountpoint -q -- "$FEX/spool/.snapshot/s1" 2>/dev/null; then
	fail "the deleted snapshot's own path is still a mount point"
fi
root=$(findmnt -n -o FSROOT --mountpoint "$FEX/elsewhere")
check_eq "the other mount shows the deleted root" "/fex/spool/.snapshot/s1//deleted" "$root"

mount_cmd stale --exports "$EXPORTS"
check_mount_rc stale 0
check_eq "the stale mount is unmounted" \
	"umount $FEX/elsewhere: subvolume $s1 no longer exists" "$(action_lines "$OUT/stale")"
if mountpoint -q -- "$FEX/elsewhere"; then
	fail "$FEX/elsewhere is still a mount point"
fi
mount_cmd again --exports "$EXPORTS"
check_mount_rc again 0
check_eq "then nothing to do" "" "$(cat "$OUT/again")"
finish
