#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch never keeps the filesystem busy: it can be detached (umount
# -l, the whole tree at once) while the watch runs; mounted again, its
# subvolumes are mounted again and a snapshot taken then is mounted too.
# Each event is waited for (WATCH_DEADLINE seconds at most), in this order.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
mount_table >"$OUT/mounted"
umount -l -- "$MNT" || fail "the filesystem cannot be detached"
eventually not mountpoint -q -- "$MNT" || fail "$MNT is still a mount point"
mount -t btrfs -- "$LOOP" "$MNT"
# all_back: the mount table below $MNT is again what the first pass made.
all_back() {
	mount_table | cmp -s -- "$OUT/mounted" -
}
eventually all_back ||
	fail "not every mount is back $WATCH_DEADLINE s after the filesystem: $(mount_table)"
btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/s4"
eventually mountpoint -q -- "$FEX/spool/.snapshot/s4" ||
	fail "a snapshot taken after the remount is not mounted after $WATCH_DEADLINE s"
kill -0 "$WATCH_PID" 2>/dev/null || fail "the watch ended: $(cat "$OUT/watch.err")"
finish
