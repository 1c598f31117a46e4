#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A mount step mounts only on the root directory of the planned subvolume:
# after the plan for a/sv, its owner (a user, by renames alone) moves sv to
# a, having made a directory sv in it, so that a/sv is now a directory
# inside the planned subvolume: its subvolume ID, its filesystem and its
# owner, but not inode 256.  The step is refused (ESTALE): no mount of sv
# on a directory of its own, and neither a nor a/sv is a mount point.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export
# The fixture's own subvolumes first, so that the plan is sv's step alone.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0
user=$FEX/user
mkdir -p -- "$user/a"
btrfs -q subvolume create "$user/a/sv"
chown -R 1000:1000 -- "$user"
sv_id=$(btrfs inspect-internal rootid -- "$user/a/sv")

plan_start "$FEX"
check_eq "the plan" "plan $sv_id $user/a/sv" "${PLANNED[*]}"

as_user 1000 "$user" mv -- a/sv s
as_user 1000 "$user" mkdir -- s/sv
as_user 1000 "$user" mv -- a a.old
as_user 1000 "$user" mv -- s a
inode=$(stat -c %i -- "$user/a/sv")
((inode != 256)) || fail "a/sv is a subvolume root"
check_eq "a/sv now: subvolume ID, owner" "$sv_id 1000" \
	"$(btrfs inspect-internal rootid -- "$user/a/sv") $(stat -c %u -- "$user/a/sv")"

plan_apply
check_eq "the step" "$user/a/sv Could not open: Stale file handle" "$APPLIED"
mountpoint -q -- "$user/a/sv" && fail "sv was mounted on a directory of its own"
mountpoint -q -- "$user/a" && fail "a is a mount point"
finish
