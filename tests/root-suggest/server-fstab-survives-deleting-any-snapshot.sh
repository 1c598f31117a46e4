#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The server fstab suggest writes stays right after the snapshot job deletes
# a snapshot: with every snapshot of the fixture deleted, findmnt --verify
# still reports no error and mount -a (in a private mount namespace) exits
# 0, mounting every line; the old advice, a line per snapshot, fails both.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
command -v unshare >/dev/null || skip_or_fail "needs unshare"

suggest fstab --exports "$EXPORTS" --format server-fstab "$FEX"
check_suggest_rc fstab 0
config_lines "$OUT/fstab" >"$OUT/lines"
# The old advice, for contrast: also a line for each snapshot, as it read.
# -p: the device itself, not blkid's cache (a loop device is reused).
uuid=$(blkid -p -s UUID -o value "$LOOP")
btrfs subvolume list -s "$MNT" | awk -v mnt="$MNT" -v uuid="$uuid" '
	{ path = $0; sub(/^.* path /, "", path)
	  printf "UUID=%s %s/%s btrfs subvolid=%s 0 0\n", uuid, mnt, path, $2 }' >"$OUT/old-lines"
cat "$OUT/lines" "$OUT/old-lines" >"$OUT/old-fstab"
check_eq "snapshots in the fixture" 3 "$(wc -l <"$OUT/old-lines")"

btrfs subvolume list -s "$MNT" | sed 's/^.* path //' | while IFS= read -r snap; do
	btrfs -q subvolume delete -- "$MNT/$snap" >/dev/null
done
check_eq "snapshots left" 0 "$(btrfs subvolume list -s "$MNT" | wc -l)"

rc=0
BLKID_FILE=/dev/null findmnt --verify --tab-file "$OUT/fstab" >"$OUT/verify" 2>&1 || rc=$?
check_eq "findmnt --verify after the deletions: exit status" 0 "$rc"
check_eq "findmnt --verify after the deletions: errors" "" "$(grep -F '[E]' "$OUT/verify" || true)"
rc=0
BLKID_FILE=/dev/null findmnt --verify --tab-file "$OUT/old-fstab" >/dev/null 2>&1 || rc=$?
check_eq "the old advice: findmnt --verify fails" 1 "$rc"

# shellcheck disable=SC2016 # expanded by the inner bash
BLKID_FILE=/dev/null unshare -m --propagation private -- bash -c '
	rc=0; mount -a -T "$1" || rc=$?; echo "$rc"
	findmnt -n -r -o TARGET | grep -F -- "$2/" | sort' \
	bash "$OUT/fstab" "$FEX" >"$OUT/mount-a" 2>"$OUT/mount-a.err"
check_eq "mount -a after the deletions: exit status" 0 "$(head -n 1 "$OUT/mount-a")"
awk '{ print $2 }' "$OUT/lines" | sort >"$OUT/expected-mounts"
tail -n +2 "$OUT/mount-a" >"$OUT/mounts"
check_files_eq "mount -a mounted every line" "$OUT/expected-mounts" "$OUT/mounts"
rc=0
BLKID_FILE=/dev/null unshare -m --propagation private -- mount -a -T "$OUT/old-fstab" \
	>/dev/null 2>&1 || rc=$?
check_eq "the old advice: mount -a fails (64: some mounts failed)" 64 "$rc"
finish
