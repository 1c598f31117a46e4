#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --xdev lists a mount point on the walked filesystem but does not enter it,
# even a bind mount of the same btrfs; subvolumes (not mounts) are entered.
# (find -xdev is no reference: it compares st_dev, which differs per subvolume.)
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

bind=$MNT/fex/spool/dir/loop
mount --bind "$MNT/fex/docs" "$bind"

# Without --xdev the bind mount is entered, as find does.
find "$MNT" | sort >"$OUT/all.expected"
grep -q -x -F -- "$bind/a.txt" "$OUT/all.expected" || fail "find does not see the bind mount"
walk all --json "$MNT"
check_walk_rc all 0
jq -r 'select(.event == "entry") | .path' "$OUT/all" | sort >"$OUT/all.paths"
check_files_eq "paths without --xdev" "$OUT/all.expected" "$OUT/all.paths"

# With --xdev: the same minus what is below the mount point.
grep -v -F -- "$bind/" "$OUT/all.expected" >"$OUT/xdev.expected"
walk xdev --json --xdev "$MNT"
check_walk_rc xdev 0
jq -r 'select(.event == "entry") | .path' "$OUT/xdev" | sort >"$OUT/xdev.paths"
check_files_eq "paths with --xdev" "$OUT/xdev.expected" "$OUT/xdev.paths"
check_eq "the mount point with --xdev: mount_root, identity of docs" \
	"true $DEV $ID_FEX $(stat -c %i "$MNT/fex/docs")" \
	"$(jq -r --arg p "$bind" 'select(.path == $p) | "\(.mount_root) \(.dev) \(.subvolid) \(.ino)"' "$OUT/xdev")"
check_eq "mount_root entries with --xdev" "$(printf '%s\n' "$MNT" "$bind" | sort)" \
	"$(jq -r 'select(.event == "entry" and .mount_root) | .path' "$OUT/xdev" | sort)"

finish
