#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch FEX OTHER, then FEX's exports line removed and OTHER's
# kept: the keeper refuses FEX alone.  OTHER is still exported, so it is
# still kept: never "no longer a PATH to keep", and a subvolume created
# below it afterwards is mounted, as mountpoint(1) sees.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

other=$MNT/other
btrfs -q subvolume create "$other"
printf '%s\n' "$other 127.0.0.1(rw,no_subtree_check,crossmnt)" >>"$EXPORTS"
watch_start watch --exports "$EXPORTS" "$FEX" "$other" || finish
eventually grep -qxF "btrfs-ino: mount: $other: watching" "$OUT/watch.err" ||
	fail "the keeper never watched $other: $(cat "$OUT/watch.err")"

grep -vF -- "$FEX " "$EXPORTS" >"$OUT/exports.other"
cp -- "$OUT/exports.other" "$EXPORTS"
eventually grep -qF "$FEX: no longer a PATH to keep" "$OUT/watch.err" ||
	fail "the keeper did not let $FEX go: $(cat "$OUT/watch.err")"
btrfs -q subvolume create "$other/new"
eventually mountpoint -q -- "$other/new" ||
	fail "$other/new, below an export still there, is not mounted $WATCH_DEADLINE s after it was made: $(cat "$OUT/watch.err")"
not grep -F "$other: no longer a PATH to keep" "$OUT/watch.err" ||
	fail "the keeper let $other go, still exported"
kill -0 "$WATCH_PID" 2>/dev/null || fail "the keeper ended"
finish
