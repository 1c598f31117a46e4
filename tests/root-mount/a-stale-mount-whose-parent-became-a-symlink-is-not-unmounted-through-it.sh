#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A stale mount (its subvolume deleted) at a/m below a user's directory is
# planned for unmounting; then the user swaps a for a symbolic link to a
# directory outside the export whose a/m is another mount (mv a a2; ln -s
# OUTSIDE/a a).  Applying the plan unmounts nothing through the link: the
# mount outside is still there, and so is the stale one (now at a2/m),
# both by findmnt; the step is refused.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export
# The fixture's subvolumes first, so that the plan below is the stale mount.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0

user=$FEX/user
mkdir -p -- "$user/a/m"
chown -R 1000:1000 -- "$user"
btrfs -q subvolume create "$FEX/gone"
gone_id=$(btrfs inspect-internal rootid -- "$FEX/gone")
mount -t btrfs -o "subvolid=$gone_id" -- "$LOOP" "$user/a/m"
btrfs -q subvolume delete "$FEX/gone"
check_eq "the mount shows its subvolume deleted" "/fex/gone//deleted" \
	"$(findmnt -n -o FSROOT --mountpoint "$user/a/m")"
outside=$MNT/outside
mkdir -p -- "$outside/a/m"
mount -t tmpfs -o size=1M victim "$outside/a/m"

plan_start "$user"
check_eq "the plan" "plan $gone_id $user/a/m" "${PLANNED[*]}"

mv -- "$user/a" "$user/a2"
ln -s -- "$outside/a" "$user/a"

plan_apply
results=$APPLIED
check_eq "the mount outside" "victim" "$(findmnt -n -o SOURCE --mountpoint "$outside/a/m" || true)"
check_eq "the stale mount, moved" "/fex/gone//deleted" \
	"$(findmnt -n -o FSROOT --mountpoint "$user/a2/m" || true)"
grep -q "^$user/a/m unmounted" <<<"$results" && fail "the step unmounted something: $results"
finish
