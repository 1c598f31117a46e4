#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A plan is for the audited directory it read (its mounts counted below it,
# its steps' paths resolved beneath it): after the plan for proj, a user's
# directory, the user replaces proj with a new directory and moves the very
# subvolume planned, sv, into it (renames alone).  proj/sv is then the
# planned subvolume root in every way (inode 256, ID, owner, filesystem),
# but proj is another directory (stat: another inode): the step is refused
# (ESTALE) and sv is no mount point.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export
# The fixture's own subvolumes first.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0
user=$FEX/user
mkdir -p -- "$user/proj"
btrfs -q subvolume create "$user/proj/sv"
chown -R 1000:1000 -- "$user"
sv_id=$(btrfs inspect-internal rootid -- "$user/proj/sv")
proj_ino=$(stat -c %i -- "$user/proj")

plan_start "$user/proj"
check_eq "the plan" "plan $sv_id $user/proj/sv" "${PLANNED[*]}"

as_user 1000 "$user" mv -- proj proj.old
as_user 1000 "$user" mkdir -- proj
as_user 1000 "$user" mv -- proj.old/sv proj/sv
[[ $(stat -c %i -- "$user/proj") != "$proj_ino" ]] || fail "proj is the same directory"
check_eq "proj/sv now: inode, subvolume ID, owner" "256 $sv_id 1000" \
	"$(stat -c %i -- "$user/proj/sv") $(btrfs inspect-internal rootid -- "$user/proj/sv") $(stat -c %u -- "$user/proj/sv")"

plan_apply
check_eq "the step" "$user/proj/sv Could not open: Stale file handle" "$APPLIED"
mountpoint -q -- "$user/proj/sv" && fail "sv was mounted below the new proj"
finish
