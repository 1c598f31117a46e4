#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Time find over a non-NFS tree plain and under `btrfs-ino exec`, and print the ratios (issue 14: within 10 %).
#
# Usage:
#   bench/exec.sh [--runs R] [--build DIR] [PATH]
#
# Times, R times each (default 7) in interleaved rounds after one untimed
# warm-up, with output to /dev/null:
#   find PATH                      plain (readdir only: d_type spares most stats)
#   btrfs-ino exec -- find PATH    the same under the preload library
#   LD_PRELOAD=... find PATH       the preload alone, without btrfs-ino's start
#   find PATH -printf '%D %i\n'    plain, one stat per entry
#   btrfs-ino exec -- find ... -printf '%D %i\n'
# PATH defaults to /usr.  btrfs-ino and libbtrfsino-exec.so come from the
# meson build directory DIR (default ./build; built if missing).  Prints the
# median wall and CPU time of each and the ratios exec/plain; needs
# /usr/bin/time (package time), not root.
set -euo pipefail

prog=${0##*/}
repo=$(cd -- "$(dirname -- "$0")/.." && pwd)
runs=7
build=$repo/build
path=/usr

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

while [[ $# -gt 0 ]]; do
	case $1 in
	--runs) runs=${2:?}; shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	-h | --help) sed -n '3,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) die "unknown option $1" ;;
	*) path=$1; shift ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number"
[[ -d $path ]] || die "$path: not a directory"
[[ -f $build/build.ninja ]] || meson setup "$build" "$repo" >/dev/null
ninja -C "$build" >/dev/null
btrfs_ino=$build/cli/btrfs-ino
export BTRFS_INO_EXEC_PRELOAD=$build/lib/preload/libbtrfsino-exec.so
[[ -x $btrfs_ino && -f $BTRFS_INO_EXEC_PRELOAD ]] || die "no btrfs-ino or preload in $build"

names=(find exec-find preload-find find-stat exec-find-stat)
declare -A cmd=(
	[find]="find $path"
	[exec-find]="$btrfs_ino exec -- find $path"
	[preload-find]="env LD_PRELOAD=$BTRFS_INO_EXEC_PRELOAD find $path"
	[find-stat]="find $path -printf %D.%i\\n"
	[exec-find-stat]="$btrfs_ino exec -- find $path -printf %D.%i\\n"
)
declare -A times cpu
tmp=$(mktemp /tmp/bino-bench-exec-XXXXXX)
trap 'rm -f -- "$tmp"' EXIT

# run NAME: one run; its wall and CPU (user + system) seconds appended to
# times[NAME] and cpu[NAME].  CPU time moves less with other load.
run() {
	# shellcheck disable=SC2086 # the command line is split on purpose
	/usr/bin/time -f '%e %U %S' -o "$tmp" ${cmd[$1]} >/dev/null 2>&1 || true
	times[$1]+="$(awk '{ print $1 }' "$tmp") "
	cpu[$1]+="$(awk '{ print $2 + $3 }' "$tmp") "
}
median() {
	tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

printf '%s: warm-up, then %d rounds over %s (%s entries)\n' "$prog" "$runs" "$path" \
	"$(find "$path" 2>/dev/null | wc -l)" >&2
for name in "${names[@]}"; do
	${cmd[$name]} >/dev/null 2>&1 || true
done
for ((r = 0; r < runs; r++)); do
	for name in "${names[@]}"; do
		run "$name"
	done
done

printf '%-16s %10s %10s\n' command wall_s cpu_s
for name in "${names[@]}"; do
	printf '%-16s %10s %10s\n' "$name" "$(median "${times[$name]}")" "$(median "${cpu[$name]}")"
done
# ratio NAME BASE: wall and CPU median ratios.
ratio() {
	awk -v a="$(median "${times[$1]}")" -v b="$(median "${times[$2]}")" \
		-v c="$(median "${cpu[$1]}")" -v d="$(median "${cpu[$2]}")" \
		'BEGIN { printf "wall %.3f, cpu %.3f", a / b, (d > 0 ? c / d : 0) }'
}
printf 'ratio exec-find/find:           %s\n' "$(ratio exec-find find)"
printf 'ratio preload-find/find:        %s\n' "$(ratio preload-find find)"
printf 'ratio exec-find-stat/find-stat: %s\n' "$(ratio exec-find-stat find-stat)"
printf 'target (issue 14): at most 1.10; load on the machine: %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
