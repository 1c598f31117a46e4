#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --format server-fstab: findmnt --verify accepts it, and it has one line per
# subvolume below the export (btrfs subvolume list), each mounting that
# subvolume by the filesystem's UUID (blkid) and subvolid= on its own path,
# with the options of the mount holding the export minus subvol/subvolid.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

suggest fstab --exports "$EXPORTS" --format server-fstab "$FEX"
check_suggest_rc fstab 0
findmnt --verify --tab-file "$OUT/fstab" >"$OUT/verify" 2>&1 ||
	fail "findmnt --verify rejects it: $(cat "$OUT/verify")"

uuid=$(blkid -s UUID -o value "$LOOP")
options=$(findmnt -n -o OPTIONS --mountpoint "$MNT" | tr ',' '\n' |
	grep -v -e '^subvol=' -e '^subvolid=' | paste -sd,)
expected_subvols | while IFS=$'\t' read -r id path; do
	printf 'UUID=%s %s btrfs %s,subvolid=%s 0 0\n' "$uuid" "$path" "$options" "$id"
done | sort >"$OUT/expected"
config_lines "$OUT/fstab" | sort >"$OUT/actual"
check_eq "subvolumes below the export" 5 "$(wc -l <"$OUT/expected")"
check_files_eq "server fstab lines" "$OUT/expected" "$OUT/actual"
finish
