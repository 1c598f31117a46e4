#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch when its export goes and comes back (an exports line
# removed, then restored, as an admin does before exportfs -ra): while the
# path is not exported the keeper goes on running, says so, and mounts
# nothing below it, not in the two looks it makes after a snapshot is taken
# there (each stats the exports file); once the path is exported again,
# that snapshot is mounted by its second look.  Looks are counted by
# strace, not seconds, so that a loaded machine counts the same.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

cp -- "$EXPORTS" "$OUT/exports.kept"
watch_start watch --exports "$EXPORTS" "$FEX" || finish
keeper_trace || finish
: >"$EXPORTS"
eventually grep -q 'not exported' "$OUT/watch.err" ||
	fail "the keeper did not say the path is no longer exported: $(cat "$OUT/watch.err")"
btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/away"
mark=$(trace_mark)
eventually stats_since "$mark" "$EXPORTS" 2 ||
	fail "the keeper stopped looking at the exports file"
not mountpoint -q -- "$FEX/spool/.snapshot/away" ||
	fail "a snapshot below the path was mounted while it was not exported"
[[ $(trace_events "$mark") != *M* ]] ||
	fail "the keeper mounted while the path was not exported: $(trace_events "$mark")"
kill -0 "$WATCH_PID" 2>/dev/null || fail "the keeper ended when the export went"

cp -- "$OUT/exports.kept" "$EXPORTS"
mark=$(trace_mark)
eventually mountpoint -q -- "$FEX/spool/.snapshot/away" ||
	fail "the snapshot is not mounted $WATCH_DEADLINE s after the path was exported again"
mounted_within_looks "$mark" M "the snapshot, once exported again"
kill -0 "$WATCH_PID" 2>/dev/null || fail "the keeper ended"
finish
