#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# seclabel, which the kernel shows among a mount's options on SELinux
# systems and which no mount takes, is not copied into the server fstab
# lines nor the mount units: the fixture's mount read from a mountinfo file
# where its options hold seclabel gives the same lines as without it.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

# The table as the kernel writes it, seclabel among the fixture's super
# options (field 11, after the " - " separator) as SELinux puts it.
awk -v mnt="$MNT" '$5 == mnt { sub(/ - btrfs [^ ]* rw,/, "&seclabel,") } { print }' \
	/proc/self/mountinfo >"$OUT/mountinfo"
check_eq "seclabel in the fixture's mountinfo line" 1 \
	"$(awk -v mnt="$MNT" '$5 == mnt' "$OUT/mountinfo" | grep -c ' rw,seclabel,')"

for format in server-fstab mount-units; do
	suggest "$format" --exports "$EXPORTS" --format "$format" "$FEX"
	check_suggest_rc "$format" 0
	suggest "$format-seclabel" --exports "$EXPORTS" --mountinfo "$OUT/mountinfo" \
		--format "$format" "$FEX"
	check_suggest_rc "$format-seclabel" 0
	check_eq "$format: no seclabel" "" "$(grep seclabel "$OUT/$format-seclabel" || true)"
	check_files_eq "$format: as without it" "$OUT/$format" "$OUT/$format-seclabel"
done
finish
