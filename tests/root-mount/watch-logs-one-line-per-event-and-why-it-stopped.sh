#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch's log is stderr, one line per event, each complete on its
# own (as the journal keeps them): through two snapshots mounted and the
# stale mount of a deleted one (s1, mounted elsewhere too) unmounted, then
# SIGTERM, every line begins "btrfs-ino: mount: ", none is a continuation, each mount and the unmount has its line, a
# note is told once however many mounts follow, the last line says the
# keeper stopped by SIGTERM, and nothing goes to stdout.  IDs from
# btrfs-progs, the UUID from blkid.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

s1=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/s1")
watch_start_elsewhere "$s1" || finish
uuid=$(blkid -p -s UUID -o value -- "$LOOP")
for s in l1 l2; do
	btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/$s"
	eventually mountpoint -q -- "$FEX/spool/.snapshot/$s" ||
		fail "$s is not mounted $WATCH_DEADLINE s after it was taken"
done
l1=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/l1")
l2=$(btrfs inspect-internal rootid "$FEX/spool/.snapshot/l2")
btrfs -q subvolume delete "$FEX/spool/.snapshot/s1"
# stale_mount: a mount of a deleted subvolume below $MNT.
stale_mount() {
	mount_table | grep -qF '//deleted'
}
eventually not stale_mount ||
	fail "s1's stale mount is still there $WATCH_DEADLINE s after the delete"
sigterm_ends_within_1_s "$WATCH_PID"

check_eq "lines not beginning 'btrfs-ino: mount: '" "" \
	"$(grep -v '^btrfs-ino: mount: ' "$OUT/watch.err" || true)"
check_eq "stdout" "" "$(cat "$OUT/watch")"
for line in \
	"btrfs-ino: mount: $FEX/spool/.snapshot/l1: mount UUID=$uuid subvolid=$l1" \
	"btrfs-ino: mount: $FEX/spool/.snapshot/l2: mount UUID=$uuid subvolid=$l2" \
	"btrfs-ino: mount: $FEX/elsewhere: umount: subvolume $s1 no longer exists"; do
	check_eq "lines '$line'" 1 "$(grep -cxF -- "$line" "$OUT/watch.err" || true)"
done
check_eq "notes on the export's crossmnt" 1 \
	"$(grep -c "^btrfs-ino: mount: $FEX: note: the export has no crossmnt" "$OUT/watch.err" || true)"
check_eq "the last line" "btrfs-ino: mount: stopped by SIGTERM" "$(tail -n 1 "$OUT/watch.err")"
finish
