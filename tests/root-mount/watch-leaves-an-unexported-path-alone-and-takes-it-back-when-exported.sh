#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch when its export goes and comes back (an exports line
# removed, then restored, as an admin does before exportfs -ra): while the
# path is not exported the keeper goes on running, says so, and mounts
# nothing below it; once it is exported again, the snapshot taken meanwhile
# is mounted within 2 s.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

cp -- "$EXPORTS" "$OUT/exports.kept"
watch_start watch --exports "$EXPORTS" "$FEX" || finish
: >"$EXPORTS"
within 3 grep -q 'not exported' "$OUT/watch.err" ||
	fail "the keeper did not say the path is no longer exported: $(cat "$OUT/watch.err")"
btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/away"
sleep 2
not mountpoint -q -- "$FEX/spool/.snapshot/away" ||
	fail "a snapshot below the path was mounted while it was not exported"
kill -0 "$WATCH_PID" 2>/dev/null || fail "the keeper ended when the export went"

cp -- "$OUT/exports.kept" "$EXPORTS"
within 2 mountpoint -q -- "$FEX/spool/.snapshot/away" ||
	fail "the snapshot is not mounted 2 s after the path was exported again"
kill -0 "$WATCH_PID" 2>/dev/null || fail "the keeper ended"
finish
