#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 36: the server fstab's drift (fstab-line-below-an-export-not-mounted-
# is-drift.sh) is counted in the Prometheus drift gauge under its kind,
# fstab, as many as the JSON document's fstab_drift[] holds: two btrfs lines
# below the export that are not mounted (JSON kind not_mounted) and the line
# of a snapshot (kind snapshot, drift even when mounted: suggest --diff
# removes it) give fstab 3, every other kind 0, exit status 1 as in text;
# with the two mounted, fstab 1.  The lines are written from btrfs
# subvolume list, never from btrfs-ino.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_fixture

uuid=$(blkid -p -s UUID -o value "$LOOP")
btrfs -q subvolume create -- "$MNT/fex/d1" >/dev/null
btrfs -q subvolume create -- "$MNT/fex/d2" >/dev/null
# "ID PATH" of d1, d2 and the fixture's first snapshot below fex.
mapfile -t lines < <(btrfs subvolume list "$MNT" | awk '$NF == "fex/d1" || $NF == "fex/d2" { print $2 " " $NF }' | sort -k2
	btrfs subvolume list -s "$MNT" | awk '{ path = $NF } path ~ /^fex\// { print $2 " " path; exit }')
((${#lines[@]} == 3)) || fail "not two subvolumes and a snapshot below fex: ${lines[*]}"
printf '%s\n' "$MNT/fex 127.0.0.1(rw,no_subtree_check)" >"$OUT/exports"
{
	echo "# server fstab"
	for line in "${lines[@]}"; do
		printf 'UUID=%s %s btrfs subvolid=%s 0 0\n' "$uuid" "$MNT/${line#* }" "${line%% *}"
	done
} >"$OUT/fstab"
mount -o "subvolid=${lines[2]%% *}" "$LOOP" "$MNT/${lines[2]#* }"

# gauge FILE: "KIND VALUE|..." of the drift gauge's lines in FILE.
gauge() {
	sed -n 's/^btrfs_ino_audit_drift{kind="\([a-z_]*\)"} \([0-9]*\)$/\1 \2/p' "$1" | paste -sd'|'
}
# check_drift NAME FSTAB JSON_KINDS: the gauge counts FSTAB fstab drift and
# nothing else; the JSON document's fstab_drift[] kinds are JSON_KINDS.
check_drift() {
	run_cli audit "$1" --format prometheus --exports "$OUT/exports" --fstab "$OUT/fstab" "$MNT/fex"
	check_rc "$1" "$RUN_RC" 1
	check_eq "$1: the drift gauge" \
		"not_in_effect 0|options_differ 0|not_in_files 0|fstab $2|etab_error 0|path_not_safe 0" "$(gauge "$OUT/$1")"
	run_cli audit "$1.json" --json --exports "$OUT/exports" --fstab "$OUT/fstab" "$MNT/fex"
	check_eq "$1: the JSON document's fstab drift" "$3" \
		"$(jq -r '[.fstab_drift[].kind] | join(" ")' "$OUT/$1.json")"
}

check_drift unmounted 3 "not_mounted not_mounted snapshot"
mount -o "subvolid=${lines[0]%% *}" "$LOOP" "$MNT/${lines[0]#* }"
mount -o "subvolid=${lines[1]%% *}" "$LOOP" "$MNT/${lines[1]#* }"
check_drift mounted 1 "snapshot"
umount "$MNT/${lines[0]#* }" "$MNT/${lines[1]#* }" "$MNT/${lines[2]#* }"
finish
