#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A user makes a subvolume at the end of a chain of directories whose path
# is longer than PATH_MAX (4096): btrfs-ino mount still mounts every other
# subvolume below the export (btrfs subvolume list), says it skipped that
# one (a "skip PATH: ..." line on stderr, and on stdout with --dry-run),
# mounts nothing there, and exits 0, as btrfs-ino(1) says: a user's
# subvolume must not fail root's run each minute.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export
# Every subvolume to be mounted, listed before the long path exists (btrfs
# subvolume list fails on it: "failed to lookup path ... File name too long").
expected_subvols | awk -F'\t' '{ print $2 "\t" $1 }' | sort >"$OUT/expected-mounts"

pad=$(printf '%0200d' 0 | tr 0 x)
deep=$FEX/deep
mkdir -- "$deep"
(
	cd -- "$deep" || exit
	for ((i = 1; i <= 25; i++)); do
		mkdir -- "$pad"
		cd -- "$pad" || exit
	done
	btrfs -q subvolume create sv
)
chown -R 1000:1000 -- "$deep"
long=$deep
for ((i = 1; i <= 25; i++)); do
	long+=/$pad
done
long+=/sv
((${#long} > 4096)) || fail "the subvolume's path is only ${#long} bytes"

mount_cmd dry --dry-run --exports "$EXPORTS"
check_mount_rc dry 0
check_eq "--dry-run lists the long path as skipped" 1 "$(grep -c -F -x -e "skip $long: path longer than PATH_MAX (4096)" "$OUT/dry")"

mount_cmd real --exports "$EXPORTS"
check_mount_rc real 0
check_eq "the run says it skipped one" \
	"btrfs-ino: mount: $FEX: skipped 1 subvolume by the mount policy (--dry-run lists them)" "$(cat "$OUT/real.err")"
# Every other subvolume is mounted on its own path.
mount_table | grep -vxF -f "$OUT/mounts.before" |
	awk -F'\t' '{ match($3, /subvolid=[0-9]+/); print $1 "\t" substr($3, RSTART + 9, RLENGTH - 9) }' |
	sort >"$OUT/new-mounts"
check_files_eq "the other subvolumes are mounted" "$OUT/expected-mounts" "$OUT/new-mounts"
mount_cmd again --exports "$EXPORTS"
check_mount_rc again 0
finish
