#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch on a filesystem that is written and committed again and
# again (files, as NFS clients write them; each `btrfs filesystem sync` a
# transaction) plans nothing again: a pass resolves the export and every
# planned path with openat2(2), and the keeper calls it not once in the two
# looks it makes after each commit.  A new subvolume then makes it plan,
# and mount it by its second look.  The calls are counted by strace,
# attached to the keeper (other tests' mounts beside this one may make it
# read the mount table, never plan), in looks, not seconds.
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
keeper_trace || finish
echo "the keeper from strace's attach until idle (L look, P pass): $(trace_events 0)"
mark=$(trace_mark)
for i in 1 2 3; do
	head -c 1M /dev/urandom >"$FEX/spool/written-$i"
	btrfs -q filesystem sync "$MNT"
	# Two looks at least after each commit, counted, not slept for.
	commit_mark=$(trace_mark)
	eventually looks_since "$commit_mark" 2 ||
		fail "the keeper stopped looking: $(trace_events "$commit_mark")"
done
events=$(trace_events "$mark")
check_eq "passes while files were written and committed (L look, P pass)" "" \
	"$(tr -d L <<<"$events")"

btrfs -q subvolume create "$FEX/spool/new"
mark=$(trace_mark)
eventually mountpoint -q -- "$FEX/spool/new" ||
	fail "new is not mounted $WATCH_DEADLINE s after it was made"
mounted_within_looks "$mark" M new
[[ $(trace_events "$mark") == *P* ]] || fail "strace saw no pass for the new subvolume"
kill "$TRACER_PID" 2>/dev/null || true
wait "$TRACER_PID" 2>/dev/null || true
finish
