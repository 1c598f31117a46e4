#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch stopped in the middle of a pass: with 300 subvolumes to
# mount, each mount(2) slowed to 20 ms (a preloaded helper), SIGTERM sent
# once its first pass has printed 20 mount lines ends it within 1 s, with
# exit status 0, between two mounts: fewer than the 300 are made, and each
# mount it printed was made (findmnt).
source "$(dirname -- "$0")/mount-lib.sh"
: "${MOUNT_HOOK_SO:?meson passes the helper}"
setup_mount_export

many=$FEX/many
mkdir -- "$many"
for ((i = 0; i < 300; i++)); do
	printf '%s/s%d\0' "$many" "$i"
done | xargs -0 -n 1 -P 4 btrfs -q subvolume create

# A sanitizer build's runtime must come first unless told otherwise.
SLOW_MOUNT_MS=20 LD_PRELOAD=$MOUNT_HOOK_SO \
	ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS} \
	"${RUN_WRAPPER[@]}" "$BTRFS_INO" mount --watch -q --exports "$EXPORTS" "$FEX" \
	>"$OUT/watch" 2>"$OUT/watch.err" &
pid=$!
started() {
	(($(grep -c "^btrfs-ino: mount: $many/[^:]*: mount UUID=" "$OUT/watch.err") >= 20))
}
within 30 started ||
	fail "the first pass did not start mounting: $(cat "$OUT/watch.err")"
sigterm_ends_within_1_s "$pid"
made=$(findmnt -n -l -o TARGET | grep -c "^$many/" || true)
((made < 300)) || fail "all 300 were mounted: SIGTERM did not end the pass"
check_eq "each mount logged was made" "$(grep -c "^btrfs-ino: mount: $many/[^:]*: mount UUID=" "$OUT/watch.err")" "$made"
# The fixture's teardown unmounts one mount at a time: these at once.
findmnt -n -l -o TARGET | grep "^$many/" | sort -r | xargs -r umount -l --
finish
