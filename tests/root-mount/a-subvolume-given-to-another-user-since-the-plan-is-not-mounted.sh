#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A mount step mounts only a subvolume owned as planned: the policy counted
# the mount against its owner's limit (max_user_mounts), so a subvolume
# given to another user after the plan (chown of its root directory) would
# be a mount that user's count never had.  The step is refused (ESTALE) and
# the subvolume is no mount point; nothing else about it changed (inode
# 256, the same subvolume ID, on the same filesystem).
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export
# The fixture's own subvolumes first, so that the plan is sv's step alone.
mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0
user=$FEX/user
mkdir -- "$user"
btrfs -q subvolume create "$user/sv"
chown -R 1000:1000 -- "$user"
sv_id=$(btrfs inspect-internal rootid -- "$user/sv")

plan_start "$FEX"
check_eq "the plan" "plan $sv_id $user/sv" "${PLANNED[*]}"

chown 1001:1001 -- "$user/sv"
check_eq "sv now: inode, subvolume ID, owner" "256 $sv_id 1001" \
	"$(stat -c %i -- "$user/sv") $(btrfs inspect-internal rootid -- "$user/sv") $(stat -c %u -- "$user/sv")"

plan_apply
check_eq "the step" "$user/sv Could not open: Stale file handle" "$APPLIED"
mountpoint -q -- "$user/sv" && fail "sv was mounted for its new owner"
finish
