#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, when the subvolume tree lists a subvolume that no lookup
# finds (a snapshot whose commit is still being written: btrfs links it in
# the tree before its name appears), plans again at its next look rather
# than wait for another change; but a subvolume that stays out of reach
# (here: made, through a descriptor opened before, in a directory a tmpfs
# hides) makes it plan again five times, not at every look for ever.
# Counted in the keeper's own looks and passes (strace), never in seconds,
# so that a loaded machine, where a second of the keeper's takes several,
# counts the same.
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

# The subvolumes mounted first, so that nothing mounted later hides the tmpfs.
mount_cmd once --exports "$EXPORTS" "$FEX"
check_mount_rc once 0
mkdir "$FEX/spool/hidden"
exec {hidden}<"$FEX/spool/hidden"
mount -t tmpfs -o size=1M hider "$FEX/spool/hidden"
watch_start watch --exports "$EXPORTS" "$FEX" || finish
keeper_trace || finish
mark=$(trace_mark)
(cd "/proc/self/fd/$hidden" && btrfs -q subvolume create sub)
exec {hidden}<&-
# settled: a pass since the mark, and four looks since the last pass.
settled() {
	[[ $(trace_events "$mark") =~ P[^P]*L[^P]*L[^P]*L[^P]*L[^P]*$ ]]
}
eventually settled || fail "the keeper still plans, or never did: $(trace_events "$mark")"
events=$(trace_events "$mark")
echo "the keeper since the subvolume was made (L look, P pass): $events"
passes=${events//[!P]/}
# The pass the new link makes, then one at each of the next five looks.
check_eq "passes after the subvolume was made" 6 "${#passes}"
[[ ${events#*P} =~ ^(LP){5}L+$ ]] ||
	fail "the keeper did not plan again at each next look: $events"
not mountpoint -q -- "$FEX/spool/hidden/sub" || fail "the hidden subvolume was mounted"
kill "$TRACER_PID" 2>/dev/null || true
wait "$TRACER_PID" 2>/dev/null || true
umount "$FEX/spool/hidden"
finish
