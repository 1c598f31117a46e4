#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, a snapshot job deletes s1 while a second mount of it below
# the export remains (its root then shows "//deleted"): within 2 s the
# watch unmounts it, and no mount of a deleted subvolume is left below the
# filesystem.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

s1=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/s1")
mkdir -- "$FEX/elsewhere"
watch_start watch --exports "$EXPORTS" "$FEX" || finish
mount -t btrfs -o "subvolid=$s1" "$LOOP" "$FEX/elsewhere"
btrfs -q subvolume delete "$FEX/spool/.snapshot/s1"
within 2 not mountpoint -q -- "$FEX/elsewhere" ||
	fail "the stale mount of s1 is still there 2 s after the delete"
check_eq "mounts of deleted subvolumes below $MNT" "" \
	"$(mount_table | grep -F '//deleted' || true)"
grep -qxF "umount $FEX/elsewhere: subvolume $s1 no longer exists" "$OUT/watch" ||
	fail "the run does not say it unmounted it: $(cat "$OUT/watch")"
finish
