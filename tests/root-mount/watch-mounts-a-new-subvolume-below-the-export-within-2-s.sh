#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, once it watches the export: a snapshot taken below it is
# mounted on its own path within 2 s, with the subvolume btrfs-progs names,
# and the run says so as the one-shot mount would.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
uuid=$(blkid -p -s UUID -o value -- "$LOOP")
btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/s4"
s4=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/s4")
within 2 mountpoint -q -- "$FEX/spool/.snapshot/s4" ||
	fail "s4 is not mounted 2 s after it was taken"
echo "s4 mounted ${WITHIN_TOOK:-?} s after it was taken"
check_eq "the mount is of s4's subvolume" "/fex/spool/.snapshot/s4" \
	"$(findmnt -n -o FSROOT --mountpoint "$FEX/spool/.snapshot/s4")"
grep -qxF "mount UUID=$uuid subvolid=$s4 on $FEX/spool/.snapshot/s4" "$OUT/watch" ||
	fail "the run does not say it mounted s4: $(cat "$OUT/watch")"
finish
