#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, when the subvolume tree lists a subvolume that no lookup
# finds (a snapshot whose commit is still being written: btrfs links it in
# the tree before its name appears), plans again at the next second rather
# than wait for another change; but a subvolume that stays out of reach
# (here: hidden by a tmpfs mounted over its directory) makes it plan again
# five times, not every second for ever.  Passes are counted by the seconds
# in which strace sees the keeper's openat2(2) calls (a pass resolves the
# export with it; an idle look does not).
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

# The subvolumes mounted first, so that nothing mounted later hides the tmpfs.
mount_cmd once --exports "$EXPORTS" "$FEX"
check_mount_rc once 0
mkdir "$FEX/spool/hidden"
btrfs -q subvolume create "$FEX/spool/hidden/sub"
mount -t tmpfs -o size=1M hider "$FEX/spool/hidden"
watch_start watch --exports "$EXPORTS" "$FEX" || finish
strace -f -qq -t -e trace=openat,openat2 -o "$OUT/trace" -p "$WATCH_PID" &
tracer=$!
within 5 grep -qs 'commit_stats' "$OUT/trace" || fail "strace never saw the keeper look"
# pass_seconds: the seconds of the trace with an openat2 call.
pass_seconds() {
	awk '/openat2\(/ { print $2 }' "$OUT/trace" | cut -c1-8 | sort -u | wc -l
}

sleep 4
passes=$(pass_seconds)
[[ $passes -ge 3 ]] ||
	fail "the keeper planned again in $passes of the first 4 s, not each second"
# Five passes after the first, a second apart: over after 6 s at most.
sleep 4
: >"$OUT/trace"
sleep 3
check_eq "seconds with a pass, from 8 s to 11 s after the start" 0 "$(pass_seconds)"
not mountpoint -q -- "$FEX/spool/hidden/sub" || fail "the hidden subvolume was mounted"
kill "$tracer" 2>/dev/null || true
wait "$tracer" 2>/dev/null || true
umount "$FEX/spool/hidden"
finish
