#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino mount mounts exactly the subvolumes btrfs subvolume list shows
# below the export, each on its own path with its subvolume as root and the
# options of its suggest --format server-fstab line (those that are not
# snapshots have one, nofail aside, which is no mount option); parents before nested
# ones; no placeholder (inode 2, found by find) becomes a mount point; it
# prints what --dry-run printed and exits 0.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

suggest fstab --exports "$EXPORTS" --format server-fstab "$FEX"
check_suggest_rc fstab 0
mount_cmd dry --dry-run --exports "$EXPORTS"
mount_cmd real --exports "$EXPORTS"
check_mount_rc real 0
check_files_eq "what it did is what --dry-run said" <(action_lines "$OUT/dry") <(action_lines "$OUT/real")
expected_mount_lines | sort >"$OUT/expected"
check_files_eq "mounts" "$OUT/expected" <(action_lines "$OUT/real" | sort)
# Mount order: no path comes after a path below it.
action_lines "$OUT/real" | awk '{ path[NR] = $NF }
	END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
		if (index(path[i], path[j] "/") == 1) print path[j] " after " path[i] }' >"$OUT/order"
check_eq "parents are mounted first" "" "$(cat "$OUT/order")"

# The new mounts: target, root and subvolid= from findmnt, against btrfs.
expected_subvols | while IFS=$'\t' read -r id path; do
	printf '%s\t/%s\tsubvolid=%s\n' "$path" "${path#"$MNT"/}" "$id"
done | sort >"$OUT/expected-mounts"
mount_table | grep -vxF -f "$OUT/mounts.before" |
	awk -F'\t' '{ match($3, /subvolid=[0-9]+/); print $1 "\t" $2 "\t" substr($3, RSTART, RLENGTH) }' |
	sort >"$OUT/new-mounts"
check_files_eq "new mounts (target, root, subvolid)" "$OUT/expected-mounts" "$OUT/new-mounts"

# The options are the server-fstab line's, for the subvolumes it has a line
# for (not the snapshots): findmnt shows them with subvol=, without nofail.
config_lines "$OUT/fstab" | awk '{ o = $4; sub(/,nofail$/, "", o); print $2 "\t" o }' |
	sort >"$OUT/fstab-options"
mount_table | grep -vxF -f "$OUT/mounts.before" |
	awk -F'\t' '{ o = $3; gsub(/,subvol=[^,]*/, "", o); print $1 "\t" o }' |
	grep -F -f <(config_lines "$OUT/fstab" | awk '{ print $2 "\t" }') | sort >"$OUT/mount-options"
check_files_eq "options as in the server fstab" "$OUT/fstab-options" "$OUT/mount-options"

while IFS= read -r placeholder; do
	if mountpoint -q -- "$placeholder"; then
		fail "placeholder $placeholder was mounted on"
	fi
	check_eq "$placeholder is still the placeholder" 2 "$(stat -c %i -- "$placeholder")"
done <"$OUT/placeholders"
finish
