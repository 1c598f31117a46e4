#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch never keeps the filesystem busy: it can be detached (umount
# -l, the whole tree at once) while the watch runs; mounted again, its
# subvolumes are mounted again and a snapshot taken then is noticed within
# 2 s.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
mounted=$(mount_table | wc -l)
umount -l -- "$MNT" || fail "the filesystem cannot be detached"
within 2 not mountpoint -q -- "$MNT" || fail "$MNT is still a mount point"
mount -t btrfs -- "$LOOP" "$MNT"
within 3 test "$(mount_table | wc -l)" -eq "$mounted" ||
	fail "not every mount is back 3 s after the filesystem: $(mount_table)"
btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/s4"
within 2 mountpoint -q -- "$FEX/spool/.snapshot/s4" ||
	fail "a snapshot taken after the remount is not mounted after 2 s"
kill -0 "$WATCH_PID" 2>/dev/null || fail "the watch ended: $(cat "$OUT/watch.err")"
finish
