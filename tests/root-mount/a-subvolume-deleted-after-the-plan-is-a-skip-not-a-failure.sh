#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A mount step whose subvolume was deleted since the plan is not a failure:
# after the plan, u/gone is deleted (its path no longer there: ENOENT) and
# u/again deleted and created anew under its name (another subvolume there:
# ESTALE); applying the plan answers "Subvolume deleted" (ENOENT) for both,
# mounts neither, and mounts u/kept, planned beside them.  u/moved, renamed
# to u/elsewhere meanwhile, still exists: its step is refused as before
# ("Could not open", ENOENT), not told deleted.  The IDs come from btrfs
# subvolume list, the mounts from findmnt.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export

u=$FEX/u
mkdir -- "$u"
for s in gone again kept moved; do
	btrfs -q subvolume create "$u/$s"
done
coproc PLAN { "${RUN_WRAPPER[@]}" "$PLAN_THEN_APPLY" "$EXPORTS" "$FEX" 2>&1; }
plan_pid=$PLAN_PID
exec {from_plan}<&"${PLAN[0]}" {to_plan}>&"${PLAN[1]}"
plan=()
while IFS= read -r line <&"$from_plan"; do
	[[ $line == planned ]] && break
	plan+=("$line")
done
for s in gone again kept moved; do
	id=$(expected_subvols | awk -F'\t' -v p="$u/$s" '$2 == p { print $1 }')
	printf '%s\n' "${plan[@]}" | grep -qxF "plan $id $u/$s" ||
		fail "$u/$s (subvolume $id) not planned: ${plan[*]}"
done

btrfs -q subvolume delete "$u/gone"
btrfs -q subvolume delete "$u/again"
btrfs -q subvolume create "$u/again"
mv -- "$u/moved" "$u/elsewhere"

echo go >&"$to_plan"
results=$(cat <&"$from_plan")
wait "$plan_pid" || fail "helper failed: $results"
check_eq "the deleted one is told deleted" \
	"$u/gone Subvolume deleted: No such file or directory" \
	"$(grep -F "$u/gone " <<<"$results")"
check_eq "the one deleted and made again is told deleted" \
	"$u/again Subvolume deleted: No such file or directory" \
	"$(grep -F "$u/again " <<<"$results")"
check_eq "the one beside them is mounted" "$u/kept mounted" \
	"$(grep -F "$u/kept " <<<"$results")"
check_eq "the one renamed is refused, not told deleted" \
	"$u/moved Could not open: No such file or directory" \
	"$(grep -F "$u/moved " <<<"$results")"
mountpoint -q -- "$u/again" && fail "the new u/again was mounted on"
mountpoint -q -- "$u/kept" || fail "u/kept is not a mount point"
finish
