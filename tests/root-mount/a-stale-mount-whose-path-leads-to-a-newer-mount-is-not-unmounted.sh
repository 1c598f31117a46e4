#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An unmount step unmounts only the mount whose ID the plan read, not one
# made after it: a stale mount (its subvolume deleted) at d/m below a
# user's directory, then the mount of the user's subvolume e/m on its own
# path, as a keeper's run makes it (a newer mount: findmnt shows a higher
# ID).  After the plan to unmount d/m the user swaps d and e (renameat2
# RENAME_EXCHANGE), so d/m is that newer mount.  The step is refused
# (ESTALE); the subvolume's mount stays at d/m and the stale one at e/m.
# With a-stale-mount-whose-path-leads-to-another-mount-is-not-unmounted (an
# older mount there) the mount ID must be the planned one, neither above it
# nor below.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
: "${EXCHANGE_LOOP:?meson passes the helper}"
setup_mount_export
user=$FEX/user
mkdir -p -- "$user/d/m" "$user/e"
chown -R 1000:1000 -- "$user"
# The fixture's subvolumes mounted first.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0

btrfs -q subvolume create "$FEX/gone"
gone_id=$(btrfs inspect-internal rootid -- "$FEX/gone")
mount -t btrfs -o "subvolid=$gone_id" -- "$LOOP" "$user/d/m"
btrfs -q subvolume delete "$FEX/gone"
stale_mnt_id=$(findmnt -n -o ID --mountpoint "$user/d/m")

btrfs -q subvolume create "$user/e/m"
chown 1000:1000 -- "$user/e/m"
sv_id=$(btrfs inspect-internal rootid -- "$user/e/m")
# The kernel gives a mount the lowest free ID, not the next one: with other
# mounts coming and going on the machine, the newer mount could take an ID
# below the stale one's.  The free IDs below it are taken first (tmpfs
# mounts outside the export, gone again once the subvolume is mounted).
fill=$OUT/fill
for ((i = 0; i < 4096; i++)); do
	mkdir -p -- "$fill/$i"
	mount -t tmpfs -o size=4k none "$fill/$i"
	(($(findmnt -n -o ID --mountpoint "$fill/$i") > stale_mnt_id)) && break
done
mount -t btrfs -o "subvolid=$sv_id" -- "$LOOP" "$user/e/m"
sv_mnt_id=$(findmnt -n -o ID --mountpoint "$user/e/m")
for dir in "$fill"/*; do
	umount -- "$dir"
done
((sv_mnt_id > stale_mnt_id)) ||
	fail "the subvolume's mount ID $sv_mnt_id is not above the stale mount's $stale_mnt_id"

plan_start "$user"
check_eq "the plan" "plan $gone_id $user/d/m" "${PLANNED[*]}"

"$EXCHANGE_LOOP" "$user/d" "$user/e" 1
check_eq "d/m is now the newer mount" "$sv_mnt_id" "$(findmnt -n -o ID --mountpoint "$user/d/m")"

plan_apply
check_eq "the step" "$user/d/m Could not open: Stale file handle" "$APPLIED"
check_eq "the subvolume's mount" "$sv_mnt_id subvolid=$sv_id" \
	"$(findmnt -n -o ID,OPTIONS --mountpoint "$user/d/m" | grep -o "^[0-9]*\|subvolid=[0-9]*" | paste -sd ' ' || true)"
check_eq "the stale mount" "$stale_mnt_id /fex/gone//deleted" \
	"$(findmnt -n -o ID,FSROOT --mountpoint "$user/e/m" | awk '{ print $1, $2 }' || true)"
finish
