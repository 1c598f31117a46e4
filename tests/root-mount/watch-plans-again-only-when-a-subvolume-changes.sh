#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch on a filesystem that is written and committed again and
# again (files, as NFS clients write them; each `btrfs filesystem sync` a
# transaction) plans nothing again: a pass resolves the export and every
# planned path with openat2(2), and the keeper calls it not once.  A new
# subvolume then makes it plan at once.  The calls are counted by strace,
# attached to the keeper (other tests' mounts beside this one may make it
# read the mount table, never plan).
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
strace -f -qq -e trace=open,openat,openat2 -o "$OUT/trace" -p "$WATCH_PID" &
tracer=$!
# strace has attached once it traces the keeper's once-a-second look.
within 5 grep -qs 'commit_stats' "$OUT/trace" || fail "strace never saw the keeper look"
: >"$OUT/trace"
# passes: the keeper's openat2 calls since.
passes() {
	grep -c 'openat2(' "$OUT/trace" || true
}

for i in 1 2 3; do
	head -c 1M /dev/urandom >"$FEX/spool/written-$i"
	btrfs -q filesystem sync "$MNT"
	# Two looks at least after each commit.
	sleep 2.2
done
within 1 grep -q 'commit_stats' "$OUT/trace" || fail "the keeper stopped looking"
check_eq "openat2 calls while files were written and committed" 0 "$(passes)"

btrfs -q subvolume create "$FEX/spool/new"
within 2 mountpoint -q -- "$FEX/spool/new" ||
	fail "new is not mounted 2 s after it was made"
[[ $(passes) -gt 0 ]] || fail "strace saw no pass for the new subvolume"
kill "$tracer" 2>/dev/null || true
wait "$tracer" 2>/dev/null || true
finish
