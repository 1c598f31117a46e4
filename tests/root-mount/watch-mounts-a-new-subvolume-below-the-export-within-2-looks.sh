#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, once it watches the export: a snapshot taken below it is
# mounted on its own path by the keeper's second look after it was taken
# (it looks once a second; counted by strace, so that a loaded machine,
# where a second of the keeper's takes several, counts the same), with the
# subvolume btrfs-progs names, and the run says so as the one-shot mount
# would.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
keeper_trace || finish
uuid=$(blkid -p -s UUID -o value -- "$LOOP")
btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/s4"
mark=$(trace_mark)
s4=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/s4")
eventually mountpoint -q -- "$FEX/spool/.snapshot/s4" ||
	fail "s4 is not mounted $WATCH_DEADLINE s after it was taken"
mounted_within_looks "$mark" M s4 &&
	echo "s4 mounted at the keeper's look $LOOKS_TOOK after it was taken (${WITHIN_TOOK:-?} s here)"
check_eq "the mount is of s4's subvolume" "/fex/spool/.snapshot/s4" \
	"$(findmnt -n -o FSROOT --mountpoint "$FEX/spool/.snapshot/s4")"
eventually grep -qxF "btrfs-ino: mount: $FEX/spool/.snapshot/s4: mount UUID=$uuid subvolid=$s4" "$OUT/watch.err" ||
	fail "the keeper does not log that it mounted s4: $(cat "$OUT/watch.err")"
finish
