#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# statx (the default on Linux 6.10+), the btrfs ioctl (--no-statx-subvol)
# and the file handle (--no-statx-subvol --no-subvol-ioctl) give the same
# walk: the outputs are identical except for "source", which names the one used.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

walk statx --json "$MNT"
check_walk_rc statx 0
walk ioctl --json --no-statx-subvol "$MNT"
check_walk_rc ioctl 0
walk handle --json --no-statx-subvol --no-subvol-ioctl "$MNT"
check_walk_rc handle 0

for name in statx ioctl handle; do
	check_json "$name"
	jq -c 'del(.source)' "$OUT/$name" | sort >"$OUT/$name.nosource"
done
check_files_eq "statx vs ioctl walk without source" "$OUT/statx.nosource" "$OUT/ioctl.nosource"
check_files_eq "statx vs file handle walk without source" "$OUT/statx.nosource" "$OUT/handle.nosource"

# Every entry names the source of its mode.  That includes the placeholders
# snapshots hold (inode 2 on the filesystem's own device): neither statx
# (no STATX_SUBVOL in stx_mask) nor the ioctl (ENOTTY) answers for them;
# they belong to the subvolume holding them, so like non-directories they
# inherit the subvolid of their directory, and with it its source.
sources() {
	jq -r 'select(.event == "entry") | .source' "$OUT/$1" | sort | uniq -c |
		awk '{ printf "%s%s=%s", sep, $2, $1; sep = " " }'
}
n=$(find "$MNT" | wc -l)
check_eq "sources by default" "statx=$n" "$(sources statx)"
check_eq "sources with --no-statx-subvol" "ioctl=$n" "$(sources ioctl)"
check_eq "sources with --no-statx-subvol --no-subvol-ioctl" "file_handle=$n" "$(sources handle)"

finish
