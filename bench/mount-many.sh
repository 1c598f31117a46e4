#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What 100,000 subvolumes, most of them one user's, cost btrfs-ino mount and
# its keeper (issue 36).
#
# Usage:
#   bench/mount-many.sh [--root N] [--user N] [--churn RATE] [--seconds S]
#                       [--build DIR] [--no-keeper]
#
# As root: makes a btrfs on a loop file in a fresh temp dir with N root-owned
# subvolumes export/root/rK (default 1,000) and N of uid 1000's in
# export/user (default 99,000: far over --max-user-mounts), made by
# bench/subvols.c (BTRFS_IOC_SUBVOL_CREATE, some 10,000 a second), exported
# in an exports file of its own (nothing given to nfsd), then prints:
#  - `mount --dry-run` and `mount` (the first, real one) wall and CPU time
#    (bash's time keyword), the target being a dry run within 1 s;
#  - with a keeper (`mount --watch`) running and uid 1000's churn beside it
#    (bench/subvols.c churn: RATE subvolumes created and as many deleted
#    each second, default 1,000), the time from `btrfs subvolume snapshot`
#    of a root-owned subvolume to its mount (five, each after 3 s of churn;
#    target within 2 s) and the keeper's CPU over S seconds of churn
#    (default 30; /proc/PID/stat utime + stime; target a tenth of a core);
#  - the time from SIGTERM to the keeper's end, sent in the middle of the
#    churn (target within 1 s).
# --no-keeper stops after the one-shot figures (a minute, not two).
# Figures on stdout, progress on stderr.  Everything made is removed at the
# end, also on failure.  perf-free: date and /proc only.
set -euo pipefail
export LC_ALL=C

prog=${0##*/}
repo=$(cd -- "$(dirname -- "$0")/.." && pwd)
root_n=1000
user_n=99000
rate=1000
seconds=30
build=$repo/build
keeper=1

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

while [[ $# -gt 0 ]]; do
	case $1 in
	--root) root_n=${2:?}; shift 2 ;;
	--user) user_n=${2:?}; shift 2 ;;
	--churn) rate=${2:?}; shift 2 ;;
	--seconds) seconds=${2:?}; shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	--no-keeper) keeper=0; shift ;;
	-h | --help) sed -n '3,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[[ $(id -u) -eq 0 ]] || die "must run as root (loop devices, mounts)"
exe=$build/cli/btrfs-ino
[[ -x $exe ]] || die "no $exe: build first"

work=$(mktemp -d /tmp/bino-mount-many.XXXXXX)
loop=
pid=
churn=
cleanup() {
	[[ -z $churn ]] || kill "$churn" 2>/dev/null || true
	[[ -z $pid ]] || kill "$pid" 2>/dev/null || true
	wait 2>/dev/null || true
	umount -l -- "$work/mnt" 2>/dev/null || true
	[[ -z $loop ]] || losetup -d "$loop" 2>/dev/null || true
	rm -rf -- "$work"
}
trap cleanup EXIT
cc -O2 -Wall -o "$work/subvols" "$repo/bench/subvols.c"
# 4 KiB nodes, single metadata: 100,000 subvolume roots fit in 1 GiB.
truncate -s 20G -- "$work/img"
mkfs.btrfs -q -m single -n 4096 "$work/img" >/dev/null
loop=$(losetup -f --show -- "$work/img")
mkdir -- "$work/mnt"
mount -- "$loop" "$work/mnt"
export=$work/mnt/export
mkdir -p -- "$export/root" "$export/user"
chown 1000:1000 -- "$export/user"
echo "== making $root_n root subvolumes and $user_n of uid 1000" >&2
"$work/subvols" make "$export/root" r "$root_n" 0
"$work/subvols" make "$export/user" u "$user_n" 1000
btrfs -q filesystem sync "$work/mnt"
echo "$export 127.0.0.1(rw,no_subtree_check,crossmnt)" >"$work/exports"
ticks=$(getconf CLK_TCK)

# timed NAME COMMAND...: wall and CPU (user + system) of COMMAND, from
# bash's time keyword.
timed() {
	local name=$1 TIMEFORMAT='%R %U %S'
	shift
	{ time "$@" >"$work/out" 2>&1; } 2>"$work/time" || true
	awk -v name="$name" '{ printf "%s: %.2f s wall, %.2f s CPU\n", name, $1, $2 + $3 }' "$work/time"
}
timed "mount --dry-run, $((root_n + user_n)) subvolumes" \
	"$exe" mount -q --dry-run --exports "$work/exports" "$export"
timed "mount (the first: $root_n + 100 mounts)" \
	"$exe" mount -q --exports "$work/exports" "$export"
timed "mount --dry-run, with them mounted" \
	"$exe" mount -q --dry-run --exports "$work/exports" "$export"
[[ $keeper -eq 1 ]] || exit 0

cpu() {
	awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
t0=$EPOCHREALTIME
"$exe" mount --watch --quiet --exports "$work/exports" "$export" >"$work/watch.out" 2>&1 &
pid=$!
sleep 5
"$work/subvols" churn "$export/user" c "$rate" 1000 >"$work/churn.out" &
churn=$!
sleep 3
echo "== snapshots during the churn" >&2
for ((i = 0; i < 5; i++)); do
	t0=$EPOCHREALTIME
	btrfs -q subvolume snapshot "$export/root/r0" "$export/root/snap$i"
	until findmnt -n --mountpoint "$export/root/snap$i" >/dev/null; do
		sleep 0.02
		awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { exit !(b - a > 30) }' && break
	done
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f\n", b - a }'
	sleep 3
done | sort -g | awk '{ v[NR] = $1 } END { printf "root snapshot to mount during churn: median %.2f s (min %.2f, max %.2f; 30.00 means never)\n", v[3], v[1], v[NR] }'
before=$(cpu)
echo "== churn for $seconds s" >&2
sleep "$seconds"
after=$(cpu)
made=$(tail -n 1 "$work/churn.out")
awk -v t="$((after - before))" -v hz="$ticks" -v s="$seconds" -v r="$rate" -v m="$made" \
	'BEGIN { printf "keeper CPU during churn (%d created and deleted a second, %d made in all): %.2f s in %d s, %.1f%% of a core\n", r, m, t / hz, s, 100 * t / hz / s }'
t0=$EPOCHREALTIME
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
awk -v a="$t0" -v b="$EPOCHREALTIME" -v st="$status" \
	'BEGIN { printf "SIGTERM to exit during churn: %.2f s (exit status %d)\n", b - a, st }'
pid=
