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
coproc PLAN { "${RUN_WRAPPER[@]}" "$PLAN_THEN_APPLY" "$EXPORTS" "$FEX" 2>&1; }
# bash forgets a coproc's variables when it ends: keep our own copies.
plan_pid=$PLAN_PID
exec {from_plan}<&"${PLAN[0]}" {to_plan}>&"${PLAN[1]}"
plan=()
while IFS= read -r line <&"$from_plan"; do
	[[ $line == planned ]] && break
	plan+=("$line")
done
printf '%s\n' "${plan[@]}" | grep -qx "plan [0-9]* $spool/vol" || fail "vol not planned: ${plan[*]}"

mv -- "$spool/vol" "$spool/vol2"
ln -s -- vol2 "$spool/vol"

echo go >&"$to_plan"
results=$(cat <&"$from_plan")
wait "$plan_pid" || fail "helper failed: $results"
check_eq "mounts on vol2" "" "$(findmnt -r -n -o TARGET --mountpoint "$spool/vol2" || true)"
grep -qx "$spool mounted" <<<"$results" || fail "spool was not mounted: $results"
grep -q "^$spool/vol mounted" <<<"$results" && fail "vol was mounted: $results"
finish
