#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Time btrfs-ino mount --dry-run beside btrfs subvolume list, at several tree sizes.
#
# Usage:
#   bench/mount-plan.sh [--files N[,N...]] [--subvols S] [--snapshots K]
#                       [--runs R] [--btrfs-ino PATH]
#
# A benchmark (issue 25 item 1), not a test: for each N (default 100000 and
# 1000000) it builds a btrfs on a loop file in a fresh mktemp directory
# with S subvolumes vols/vNNN (default 100) holding N empty files between
# them (directories of 1,000) and K snapshots snapshots/vNNN.snap of the
# first ones (default 20), exports the top in a temporary exports file, and
# runs each command once untimed (warm-up; the plan's mount lines are
# counted: one per subvolume), then R times (default 5), warm:
#   btrfs-ino mount --dry-run -q --exports FILE TOP
#   btrfs subvolume list TOP
# It prints, per size, the median wall time in milliseconds (bash's
# EPOCHREALTIME around the run; /usr/bin/time's %e has 10 ms steps) and
# the peak RSS (largest %M of /usr/bin/time over the runs).  The target
# (issue 25): mount --dry-run at most 50 ms warm, and its peak RSS the same
# (within 1 MiB) at 100k and at 1M files, since it reads no file.
# Needs root (loop devices, mkfs.btrfs).  The loop devices, mounts and
# images are removed on exit, also on failure.  Building the 1M-file tree
# takes a few minutes (xargs touch in batches); progress goes to stderr,
# the report to stdout.
set -euo pipefail
export LC_ALL=C

src=$(cd "$(dirname "$0")/.." && pwd)
sizes=100000,1000000
subvols=100
snapshots=20
runs=5
btrfs_ino=$src/build/cli/btrfs-ino

while (($#)); do
	case $1 in
	--files) sizes=$2; shift 2 ;;
	--subvols) subvols=$2; shift 2 ;;
	--snapshots) snapshots=$2; shift 2 ;;
	--runs) runs=$2; shift 2 ;;
	--btrfs-ino) btrfs_ino=$2; shift 2 ;;
	-h | --help) sed -n '3,27s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) echo "mount-plan.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
done
((EUID == 0)) || { echo "mount-plan.sh: needs root" >&2; exit 2; }
[[ -x $btrfs_ino ]] || { echo "mount-plan.sh: no $btrfs_ino (ninja -C build, or --btrfs-ino)" >&2; exit 2; }
((snapshots <= subvols)) || { echo "mount-plan.sh: more snapshots than subvolumes" >&2; exit 2; }

work=
loop=
cleanup() {
	local target
	if [[ -n $work ]]; then
		while read -r target; do
			umount -- "$target" 2>/dev/null || umount -l -- "$target" || true
		done < <(findmnt -n -l -o TARGET | grep -F -- "$work" | sort -r)
	fi
	[[ -z $loop ]] || losetup -d "$loop" 2>/dev/null || true
	[[ -z $work ]] || rm -rf -- "$work"
	work='' loop=''
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# build FILES: the tree in $work/mnt.
build() {
	local files=$1 top i per rest n d name
	work=$(mktemp -d /tmp/btrfs-ino-bench-mount.XXXXXX)
	top=$work/mnt
	truncate -s 8G -- "$work/btrfs.img"
	mkfs.btrfs -q -m single -d single -- "$work/btrfs.img" >/dev/null
	loop=$(losetup -f --show -- "$work/btrfs.img")
	mkdir -- "$top"
	mount -t btrfs -o noatime -- "$loop" "$top"
	mkdir -- "$top/vols" "$top/snapshots"
	per=$((files / subvols))
	rest=$((files - per * subvols))
	for ((i = 1; i <= subvols; i++)); do
		printf -v name 'v%03d' "$i"
		btrfs -q subvolume create -- "$top/vols/$name"
		n=$((per + (i <= rest ? 1 : 0)))
		(
			cd -- "$top/vols/$name"
			for ((d = 0; d * 1000 < n; d++)); do
				mkdir -- "d$d"
			done
			# f0 ... f(n-1) in directories of 1,000.
			awk -v n="$n" 'BEGIN { for (f = 0; f < n; f++) printf "d%d/f%d\n", int(f / 1000), f }' |
				xargs -d '\n' -n 5000 touch --
		)
		printf '\rmount-plan.sh: %d files: subvolume %d of %d' "$files" "$i" "$subvols" >&2
	done
	for ((i = 1; i <= snapshots; i++)); do
		printf -v name 'v%03d' "$i"
		btrfs -q subvolume snapshot -- "$top/vols/$name" "$top/snapshots/$name.snap"
	done
	printf '\n' >&2
	sync
	printf '%s *(rw,no_subtree_check,crossmnt)\n' "$top" >"$work/exports"
}

# timed NAME COMMAND...: R timed runs after one warm-up; "MEDIAN_MS MAX_RSS_KB".
timed() {
	local name=$1 i start end
	shift
	local -a walls=() rss=()
	"$@" >"$work/$name.out" 2>/dev/null || true
	for ((i = 0; i < runs; i++)); do
		start=$EPOCHREALTIME
		/usr/bin/time -f '%e %M' -o "$work/$name.time" -- "$@" >/dev/null 2>&1 || true
		end=$EPOCHREALTIME
		walls+=("$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", (e - s) * 1000 }')")
		rss+=("$(awk '{ print $2 }' "$work/$name.time")")
	done
	printf '%s %s\n' \
		"$(printf '%s\n' "${walls[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')" \
		"$(printf '%s\n' "${rss[@]}" | sort -n | tail -n 1)"
}

printf '%-10s %-9s %-34s %10s %12s %s\n' files subvols command median_ms peak_rss_kb listed
IFS=, read -r -a size_list <<<"$sizes"
for files in "${size_list[@]}"; do
	build "$files"
	top=$work/mnt
	read -r plan_ms plan_rss < <(timed plan "$btrfs_ino" mount --dry-run -q --exports "$work/exports" "$top")
	read -r list_ms list_rss < <(timed list btrfs subvolume list "$top")
	printf '%-10s %-9s %-34s %10s %12s %s\n' "$files" "$((subvols + snapshots))" "btrfs-ino mount --dry-run" \
		"$plan_ms" "$plan_rss" "$(grep -c '^mount ' "$work/plan.out" || true) mount lines"
	printf '%-10s %-9s %-34s %10s %12s %s\n' "$files" "$((subvols + snapshots))" "btrfs subvolume list" \
		"$list_ms" "$list_rss" "$(wc -l <"$work/list.out") subvolumes"
	cleanup
done
