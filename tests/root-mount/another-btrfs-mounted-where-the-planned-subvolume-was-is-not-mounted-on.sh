#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A mount step mounts only on the planned subvolume of the planned
# filesystem: after the plan, the subvolume vol is moved aside and another
# btrfs's subvolume of the same ID, also root's, is mounted where vol was.
# That root directory has inode 256, vol's subvolume ID and owner, and only
# its filesystem UUID (blkid -p) tells it apart: the step is refused
# (ESTALE), and findmnt shows the other btrfs's mount there alone.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export
# The fixture's own subvolumes first, so that the plan is vol's step alone.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0
btrfs -q subvolume create "$FEX/vol"
vol_id=$(btrfs inspect-internal rootid -- "$FEX/vol")

# The other btrfs (autoclear loop: unmounting it detaches it), with
# subvolumes made until one has vol's ID.
other=$MNT/other
truncate -s 200M -- "$WORK/other.img"
mkfs.btrfs -q -- "$WORK/other.img" >/dev/null
mkdir -- "$other"
mount -o loop -- "$WORK/other.img" "$other"
other_dev=$(findmnt -n -o SOURCE --mountpoint "$other")
for ((n = 0; ; n++)); do
	btrfs -q subvolume create "$other/h$n"
	id=$(btrfs inspect-internal rootid -- "$other/h$n")
	((id < vol_id)) || break
done
check_eq "the other btrfs's subvolume has vol's ID" "$vol_id" "$id"

plan_start "$FEX"
check_eq "the plan" "plan $vol_id $FEX/vol" "${PLANNED[*]}"

mv -- "$FEX/vol" "$FEX/vol.aside"
mkdir -- "$FEX/vol"
mount -t btrfs -o "subvolid=$vol_id" -- "$other_dev" "$FEX/vol"
check_eq "what is at vol now: inode, subvolume ID, owner" "256 $vol_id 0" \
	"$(stat -c %i -- "$FEX/vol") $(btrfs inspect-internal rootid -- "$FEX/vol") $(stat -c %u -- "$FEX/vol")"
[[ $(blkid -p -s UUID -o value -- "$other_dev") != "$(blkid -p -s UUID -o value -- "$LOOP")" ]] ||
	fail "the two filesystems have one UUID"

plan_apply
check_eq "the step" "$FEX/vol Could not open: Stale file handle" "$APPLIED"
check_eq "the mounts on vol" "${other_dev}[/h$n]" \
	"$(findmnt -n -l -o SOURCE --mountpoint "$FEX/vol")"
finish
