#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --stat-all (statx every entry) gives the same records as the default fast
# path that takes non-directories' identities from readdir.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

walk fast --json "$MNT"
check_walk_rc fast 0
walk all --json --stat-all "$MNT"
check_walk_rc all 0
check_json fast
check_json all
sort "$OUT/fast" >"$OUT/fast.sorted"
sort "$OUT/all" >"$OUT/all.sorted"
check_files_eq "default vs --stat-all" "$OUT/fast.sorted" "$OUT/all.sorted"
check_eq "entries walked" "$(find "$MNT" | wc -l)" \
	"$(jq -r 'select(.event == "entry") | .path' "$OUT/all" | wc -l)"

# With --stat too.  Reading directories may move their atime in between,
# and the kernel makes up the placeholders snapshots hold (empty directories,
# inode 2) afresh on each lookup, with the time of that lookup.
walk fast-stat --json --stat "$MNT"
check_walk_rc fast-stat 0
walk all-stat --json --stat --stat-all "$MNT"
check_walk_rc all-stat 0
unstable='del(.atime, .atime_nsec) |
	if .type == "dir" and .ino == 2 then del(.mtime, .mtime_nsec, .ctime, .ctime_nsec) else . end'
jq -c "$unstable" "$OUT/fast-stat" | sort >"$OUT/fast-stat.sorted"
jq -c "$unstable" "$OUT/all-stat" | sort >"$OUT/all-stat.sorted"
check_files_eq "--stat vs --stat --stat-all (atime aside)" "$OUT/fast-stat.sorted" "$OUT/all-stat.sorted"

finish
