#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# After the plan, the planned subvolume vol is renamed vol2 and vol made a
# symbolic link to it (mv vol vol2; ln -s vol2 vol): applying the plan
# mounts nothing through the link, so findmnt shows no mount on vol2 (the
# very subvolume planned, so only where it was planned may it be mounted),
# and the rest of the plan is still carried out.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export

spool=$FEX/spool
btrfs -q subvolume create "$spool/vol"
plan_start "$FEX"
printf '%s\n' "${PLANNED[@]}" | grep -qx "plan [0-9]* $spool/vol" || fail "vol not planned: ${PLANNED[*]}"

mv -- "$spool/vol" "$spool/vol2"
ln -s -- vol2 "$spool/vol"

plan_apply
results=$APPLIED
check_eq "mounts on vol2" "" "$(findmnt -r -n -o TARGET --mountpoint "$spool/vol2" || true)"
grep -qx "$spool mounted" <<<"$results" || fail "spool was not mounted: $results"
grep -q "^$spool/vol mounted" <<<"$results" && fail "vol was mounted: $results"
finish
