#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A stale mount (its subvolume deleted) at d/m below a user's directory is
# planned for unmounting; then the user swaps d with a directory e whose m
# is the mount of one of their subvolumes that an earlier run made
# (renameat2 RENAME_EXCHANGE: d/m is now that mount).  Applying the plan
# unmounts only the mount whose ID it planned: the subvolume's mount stays
# (findmnt: at d/m, its subvolume ID), and so does the stale one (at e/m);
# the step is refused as another mount.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
: "${EXCHANGE_LOOP:?meson passes the helper}"
setup_mount_export

user=$FEX/user
mkdir -p -- "$user/d/m" "$user/e"
btrfs -q subvolume create "$user/e/m"
sv_id=$(btrfs inspect-internal rootid -- "$user/e/m")
chown -R 1000:1000 -- "$user"
# The fixture's subvolumes and e/m mounted, before the stale mount exists.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0
mountpoint -q -- "$user/e/m" || fail "e/m was not mounted"

btrfs -q subvolume create "$FEX/gone"
gone_id=$(btrfs inspect-internal rootid -- "$FEX/gone")
mount -t btrfs -o "subvolid=$gone_id" -- "$LOOP" "$user/d/m"
btrfs -q subvolume delete "$FEX/gone"

plan_start "$user"
check_eq "the plan" "plan $gone_id $user/d/m" "${PLANNED[*]}"

"$EXCHANGE_LOOP" "$user/d" "$user/e" 1
check_eq "d/m is now the subvolume's mount" "$sv_id" "$(btrfs inspect-internal rootid -- "$user/d/m")"

plan_apply
results=$APPLIED
check_eq "the step" "$user/d/m Could not open: Stale file handle" "$results"
check_eq "the subvolume's mount" "subvolid=$sv_id" \
	"$(findmnt -n -o OPTIONS --mountpoint "$user/d/m" | grep -o "subvolid=[0-9]*" || true)"
check_eq "the stale mount" "/fex/gone//deleted" \
	"$(findmnt -n -o FSROOT --mountpoint "$user/e/m" || true)"
finish
