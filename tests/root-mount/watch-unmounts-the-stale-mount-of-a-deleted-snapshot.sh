#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, a snapshot job deletes s1 while a second mount of it below
# the export remains (its root then shows "//deleted"): by its second look
# after the delete (strace counts them) the watch unmounts it, and no mount
# of a deleted subvolume is left below the filesystem.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

s1=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/s1")
watch_start_elsewhere "$s1" || finish
keeper_trace || finish
btrfs -q subvolume delete "$FEX/spool/.snapshot/s1"
mark=$(trace_mark)
eventually not mountpoint -q -- "$FEX/elsewhere" ||
	fail "the stale mount of s1 is still there $WATCH_DEADLINE s after the delete"
mounted_within_looks "$mark" U "the stale mount of s1"
check_eq "mounts of deleted subvolumes below $MNT" "" \
	"$(mount_table | grep -F '//deleted' || true)"
eventually grep -qxF "btrfs-ino: mount: $FEX/elsewhere: umount: subvolume $s1 no longer exists" "$OUT/watch.err" ||
	fail "the keeper does not log that it unmounted it: $(cat "$OUT/watch.err")"
finish
