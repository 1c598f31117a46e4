#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch stopped while a pass plans: each search of the btrfs trees
# slowed to 300 ms (a preloaded helper), so the first pass plans for
# seconds before its first step; SIGTERM 1 s after the start ends it within
# 1 s, with exit status 0, having mounted nothing (findmnt).
source "$(dirname -- "$0")/mount-lib.sh"
: "${MOUNT_HOOK_SO:?meson passes the helper}"
setup_mount_export

# A sanitizer build's runtime must come first unless told otherwise.
SLOW_SEARCH_MS=300 LD_PRELOAD=$MOUNT_HOOK_SO \
	ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
	"${RUN_WRAPPER[@]}" "$BTRFS_INO" mount --watch -q --exports "$EXPORTS" "$FEX" \
	>"$OUT/watch" 2>"$OUT/watch.err" &
pid=$!
sleep 1
check_eq "no step yet after 1 s (still planning)" "" \
	"$(grep -e ': mount UUID=' -e ': umount: ' "$OUT/watch.err" || true)"
sigterm_ends_within_1_s "$pid"
mount_table | grep -vxF -f "$OUT/mounts.before" >"$OUT/mounted" || true
check_eq "nothing mounted" "" "$(cat "$OUT/mounted")"
finish
