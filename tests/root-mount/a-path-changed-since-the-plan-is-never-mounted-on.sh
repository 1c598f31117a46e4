#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A mount step checks its mount point when it acts, not only when planned:
# after the plan, the snapshot T (holding a subvolume N) is renamed away and
# taken again from its source, so T is another subvolume and T/N the empty
# placeholder (inode 2, find) a snapshot holds for a nested subvolume; the
# planned ones still exist (deleted, they would be told so: see
# a-subvolume-deleted-after-the-plan-is-a-skip-not-a-failure).  Applying the
# plan mounts neither (ESTALE) but still mounts the unchanged subvolume next
# to them.
source "$(dirname -- "$0")/mount-lib.sh"
: "${PLAN_THEN_APPLY:?meson passes the helper}"
setup_mount_export

spool=$FEX/spool
btrfs -q subvolume create "$spool/vol"
btrfs -q subvolume snapshot "$spool/vol" "$spool/t"
btrfs -q subvolume create "$spool/t/n"
# The plan for spool, vol, t, t/n and the rest of the export.
plan_start "$FEX"
printf '%s\n' "${PLANNED[@]}" | grep -qx "plan [0-9]* $spool/t/n" || fail "t/n not planned: ${PLANNED[*]}"

# t taken again, from vol that now holds a subvolume n: t/n is its placeholder.
mv -- "$spool/t" "$spool/t-old"
btrfs -q subvolume create "$spool/vol/n"
btrfs -q subvolume snapshot "$spool/vol" "$spool/t"
check_eq "t/n is now a placeholder" 2 "$(stat -c %i -- "$spool/t/n")"

plan_apply
results=$APPLIED
grep -qx "$spool/t/n Could not open: Stale file handle" <<<"$results" ||
	fail "the placeholder was not refused: $results"
grep -qx "$spool/t Could not open: Stale file handle" <<<"$results" ||
	fail "the new t (another subvolume) was not refused: $results"
grep -qx "$spool/vol mounted" <<<"$results" || fail "vol was not mounted: $results"
mountpoint -q -- "$spool/t/n" && fail "the placeholder is a mount point"
mountpoint -q -- "$spool/t" && fail "the new t is a mount point"
finish
