#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --format server-fstab: findmnt --verify accepts it, and it has one line per
# subvolume below the export that is not a snapshot (btrfs subvolume list
# -q: no parent_uuid), each mounting that subvolume by the filesystem's UUID
# (blkid) and subvolid= on its own path, with the options of the mount
# holding the export minus subvol/subvolid, and nofail.  The snapshots get
# one comment line that leaves them to btrfs-ino mount.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

suggest fstab --exports "$EXPORTS" --format server-fstab "$FEX"
check_suggest_rc fstab 0
BLKID_FILE=/dev/null findmnt --verify --tab-file "$OUT/fstab" >"$OUT/verify" 2>&1 ||
	fail "findmnt --verify rejects it: $(cat "$OUT/verify")"

# -p: the device itself, not blkid's cache (a loop device is reused).
uuid=$(blkid -p -s UUID -o value "$LOOP")
options=$(findmnt -n -o OPTIONS --mountpoint "$MNT" | tr ',' '\n' |
	grep -v -e '^subvol=' -e '^subvolid=' | paste -sd,)
expected_plain_subvols | while IFS=$'\t' read -r id path; do
	printf 'UUID=%s %s btrfs %s,subvolid=%s,nofail 0 0\n' "$uuid" "$path" "$options" "$id"
done | sort >"$OUT/expected"
config_lines "$OUT/fstab" | sort >"$OUT/actual"
check_eq "subvolumes below the export that are not snapshots" 2 "$(wc -l <"$OUT/expected")"
check_files_eq "server fstab lines" "$OUT/expected" "$OUT/actual"
snapshots=$(btrfs subvolume list -s "$MNT" | grep -c ' path fex/')
check_eq "the snapshots' one comment line" \
	"# Snapshots ($snapshots below it now) get none: btrfs-ino mount mounts them (btrfs-ino-mount.service), so deleting one never stops boot" \
	"$(grep -F '# Snapshots (' "$OUT/fstab")"
finish
