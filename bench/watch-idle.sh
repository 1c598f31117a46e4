#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What an idle `btrfs-ino mount --watch` costs: CPU seconds per hour over a
# btrfs of many subvolumes that nothing changes (issue 25: under 1 s).
#
# Usage:
#   bench/watch-idle.sh [--subvols N] [--seconds S] [--build DIR]
#
# As root: makes a btrfs on a loop file in a fresh temp dir with N
# subvolumes (default 1000) below an exported directory (an exports file of
# its own, nothing given to nfsd), starts the keeper, lets its first pass
# mount them all, commits the filesystem, then reads the keeper's user and
# system CPU time from /proc/PID/stat before and after S idle seconds
# (default 300) and prints them per hour.  Then the latency: the median over 10 snapshots of the time
# from `btrfs subvolume snapshot` to the mount in /proc/self/mountinfo.
# Everything made is removed at the end.
set -euo pipefail

prog=${0##*/}
repo=$(cd -- "$(dirname -- "$0")/.." && pwd)
subvols=1000
seconds=300
build=$repo/build

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

while [[ $# -gt 0 ]]; do
	case $1 in
	--subvols) subvols=${2:?}; shift 2 ;;
	--seconds) seconds=${2:?}; shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	-h | --help) sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[[ $(id -u) -eq 0 ]] || die "must run as root (loop devices, mounts)"
exe=$build/cli/btrfs-ino
[[ -x $exe ]] || die "no $exe: build first"

work=$(mktemp -d /tmp/bino-watch-idle.XXXXXX)
loop=
pid=
cleanup() {
	[[ -z $pid ]] || kill "$pid" 2>/dev/null || true
	[[ -z $pid ]] || wait "$pid" 2>/dev/null || true
	umount -l -- "$work/mnt" 2>/dev/null || true
	[[ -z $loop ]] || losetup -d "$loop" 2>/dev/null || true
	rm -rf -- "$work"
}
trap cleanup EXIT
truncate -s 2G -- "$work/img"
mkfs.btrfs -q "$work/img" >/dev/null
loop=$(losetup -f --show -- "$work/img")
mkdir -- "$work/mnt"
mount -- "$loop" "$work/mnt"
mkdir -- "$work/mnt/export"
echo "== making $subvols subvolumes" >&2
for ((i = 0; i < subvols; i++)); do
	printf '%s/mnt/export/v%04d\n' "$work" "$i"
done | xargs -n 1 btrfs -q subvolume create
echo "$work/mnt/export 127.0.0.1(rw,no_subtree_check,crossmnt)" >"$work/exports"

"$exe" mount --watch --quiet --exports "$work/exports" "$work/mnt/export" >"$work/out" 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do
	[[ $(grep -c '^mount ' "$work/out" || true) -ge $subvols ]] && break
	sleep 0.1
done
sleep 3 # the pass after its own mounts
# An idle server's transactions are committed; making the subvolumes left
# one open that touched the whole root tree, which the keeper searches each
# second until it is committed (30 s by default).
btrfs -q filesystem sync "$work/mnt"
sleep 2
# cpu: utime + stime of the keeper, in clock ticks.
cpu() {
	awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
ticks=$(getconf CLK_TCK)
before=$(cpu)
echo "== idle for $seconds s" >&2
sleep "$seconds"
after=$(cpu)
awk -v t="$((after - before))" -v hz="$ticks" -v s="$seconds" -v n="$subvols" \
	'BEGIN { printf "idle keeper, %d subvolumes: %.2f s CPU in %d s, %.2f s per hour\n", n, t / hz, s, t / hz * 3600 / s }'

for ((i = 0; i < 10; i++)); do
	t0=$EPOCHREALTIME
	btrfs -q subvolume snapshot "$work/mnt/export/v0000" "$work/mnt/export/s$i"
	until findmnt -n --mountpoint "$work/mnt/export/s$i" >/dev/null; do
		sleep 0.02
	done
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
done | sort -g | awk '{ v[NR] = $1 } END { printf "snapshot to mount, median of %d: %.2f s (min %.2f, max %.2f)\n", NR, (v[5] + v[6]) / 2, v[1], v[NR] }'
