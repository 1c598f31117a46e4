#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch --max-user-mounts 1, uid 1000 holding its one mount: three
# subvolumes the user then creates get no mount from the quick passes that
# plan them (counted on from the full pass's tallies), while a snapshot
# root takes after them is mounted; none of it by a full pass (no listing
# of the whole subvolume tree, seen by strace).  Owners from stat, mounts
# from findmnt.
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

user=$FEX/user
mkdir -- "$user"
btrfs -q subvolume create "$user/s1"
chown 1000:1000 -- "$user" "$user/s1"
watch_start watch --max-user-mounts 1 --exports "$EXPORTS" "$FEX" || finish
eventually mountpoint -q -- "$user/s1" || fail "s1 is not mounted"
ioctls_trace || finish
mark=$(wc -l <"$OUT/ioctls")
for n in 2 3 4; do
	as_user 1000 "$user" btrfs -q subvolume create "s$n"
done
check_eq "uid 1000 owns its new subvolumes" "1000 1000 1000" \
	"$(stat -c %u -- "$user/s2" "$user/s3" "$user/s4" | tr '\n' ' ' | sed 's/ $//')"
btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/after"
eventually mountpoint -q -- "$FEX/spool/.snapshot/after" ||
	fail "root's snapshot is not mounted $WATCH_DEADLINE s after it was taken"
kill "$TRACER_PID" 2>/dev/null || true
wait "$TRACER_PID" 2>/dev/null || true
tail -n +"$((mark + 1))" "$OUT/ioctls" >"$OUT/since"
for n in 2 3 4; do
	not mountpoint -q -- "$user/s$n" || fail "s$n of uid 1000, over the limit, is mounted"
done
check_eq "mounts of uid 1000's subvolumes below the export" 1 \
	"$(mount_table | cut -f1 | while IFS= read -r m; do stat -c %u -- "$m"; done | grep -cx 1000)"
check_eq "listings of the whole subvolume tree meanwhile" 0 \
	"$(grep -c "$LISTING" "$OUT/since" || true)"
finish
