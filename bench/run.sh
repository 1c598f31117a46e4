#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Time btrfs-ino walk/audit against find, bfs, fd and a floor walker on a loop-mounted btrfs.
#
# Usage:
#   bench/run.sh [--shape NAME] [--entries N] [--subvols S] [--snapshots K]
#                [--runs R] [--cold] [--keep DIR] [--build DIR | --btrfs-ino PATH]
#                [--perf] [--extra] [--only NAMES]
#
# Builds a reference tree on a btrfs in a loop file (in a fresh mktemp
# directory, or in DIR with --keep, where it is reused while its size
# matches): S subvolumes vols/vNNN, each a real copy of the same tree, and K
# snapshots snapshots/vNNN.snap of the first ones, about N entries in all;
# the first file of each subvolume has a second hard link.  --shape picks
# the tree (issue 16); --entries, --subvols and --snapshots override its
# sizes:
#   wide     (the default) flat directories of 100 entries; 1.1M entries,
#            200 subvolumes, 20 snapshots
#   small    directories of about 12 entries, two levels deep, as in /usr or
#            a source tree; 336k entries, 60 subvolumes, 10 snapshots
#   1+1      small directories; one subvolume of 476k files and one
#            snapshot of it (1.04M entries: every key collides once)
#   1+20     small directories; one subvolume and 20 snapshots, 3.36M entries
# Then times each command R times with output to
# /dev/null, warm (after one untimed warm-up run, which also counts the
# lines it prints) and, with --cold, cold (sync and drop_caches before every
# run), rounds interleaved so that other load spreads over all commands.
# Prints wall time (median of R), peak RSS (largest of all runs, from
# /usr/bin/time %M), what each listed in the warm-up (lines printed; for
# audit, the entries it audited) and the ratios and memory issue 16 targets.  --perf also records the
# warm walk --json run with perf record (DWARF call graphs) and prints its
# top symbols.
# --extra adds walk --json --threads 1 (the walk without its directory
# helpers, where btrfs-ino has --threads).  --only takes a comma-separated
# subset of the command names in the table, the extra one included.
# Progress goes to stderr, the report to stdout.  At the default size
# (1.1M entries, 200 subvolumes, 20 snapshots) and 3 runs, with --cold, it
# takes 10 to 15 minutes on 2 cores.  "audit --json (user)" is the audit as
# the unprivileged user nobody (setpriv), which learns less from the kernel.
#
# btrfs-ino is built with meson (release) in DIR (--build, default
# /tmp/build-bench) unless --btrfs-ino names a binary; bench/floor.c is
# built with cc -O2.  Needs root (loop devices, mount, drop_caches).
# Everything it mounts or attaches is undone on exit, whatever happens.
set -euo pipefail

prog=${0##*/}
bench_dir=$(cd -- "$(dirname -- "$0")" && pwd)
repo=$(cd -- "$bench_dir/.." && pwd)

shape=wide
entries=
subvols=
snapshots=
runs=3
extra=false
cold=false
keep=
build=/tmp/build-bench
btrfs_ino=
perf=false
only=

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

progress() {
	printf '%s: %s\n' "$prog" "$*" >&2
}

usage() {
	sed -n '/^# Usage:/,/^set -euo/{ /^#/s/^# \{0,1\}//p; }' "$0"
}

number() {
	[[ $2 =~ ^[0-9]+$ ]] || die "$1 needs a number"
	printf '%s' "$2"
}

while [[ $# -gt 0 ]]; do
	case $1 in
	--shape) shape=${2:?--shape needs a name}; shift 2 ;;
	--entries) entries=$(number "$1" "${2-}"); shift 2 ;;
	--subvols) subvols=$(number "$1" "${2-}"); shift 2 ;;
	--snapshots) snapshots=$(number "$1" "${2-}"); shift 2 ;;
	--runs) runs=$(number "$1" "${2-}"); shift 2 ;;
	--cold) cold=true; shift ;;
	--keep) keep=${2:?--keep needs a directory}; shift 2 ;;
	--build) build=${2:?--build needs a directory}; shift 2 ;;
	--btrfs-ino) btrfs_ino=${2:?--btrfs-ino needs a path}; shift 2 ;;
	--perf) perf=true; shift ;;
	--extra) extra=true; shift ;;
	--only) only=${2:?--only needs names}; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown option '$1' (try '$prog --help')" ;;
	esac
done
# files_per_dir: files in each directory (plus its subdirectories and itself
# for the entries it holds); nested: two levels of directories, not one.
case $shape in
wide) files_per_dir=99 nested=false d_entries=1100000 d_subvols=200 d_snapshots=20 ;;
small) files_per_dir=11 nested=true d_entries=336000 d_subvols=60 d_snapshots=10 ;;
1+1) files_per_dir=11 nested=true d_entries=1040000 d_subvols=1 d_snapshots=1 ;;
1+20) files_per_dir=11 nested=true d_entries=3360000 d_subvols=1 d_snapshots=20 ;;
*) die "unknown shape '$shape' (wide, small, 1+1, 1+20)" ;;
esac
entries=${entries:-$d_entries}
subvols=${subvols:-$d_subvols}
snapshots=${snapshots:-$d_snapshots}
[[ $(id -u) == 0 ]] || die "must be run as root"
((subvols >= 1)) || die "--subvols must be at least 1"
((runs >= 1)) || die "--runs must be at least 1"
[[ -x /usr/bin/time ]] || die "/usr/bin/time missing (apt-get install time)"

# ---- cleanup ------------------------------------------------------------

work=$(mktemp -d "${TMPDIR:-/tmp}/btrfs-ino-bench.XXXXXX")
# The unprivileged audit reaches the tree through it.
chmod 755 -- "$work"
if [[ -n $keep ]]; then
	mkdir -p -- "$keep"
	store=$(realpath -e -- "$keep")
else
	store=$work
fi
img=$store/bench.img
mnt=$store/mnt
loop=

cleanup() {
	local status=$?

	set +e
	if mountpoint -q -- "$mnt"; then
		umount -- "$mnt" 2>/dev/null || umount -l -- "$mnt"
	fi
	[[ -z $loop ]] || losetup -d "$loop" 2>/dev/null
	if [[ -z $keep ]]; then
		rm -f -- "$img" "$store/bench.params" "$store/bench.built"
		[[ ! -d $mnt ]] || rmdir -- "$mnt"
	fi
	rm -rf -- "$work"
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- tools --------------------------------------------------------------

cc -O2 -Wall -o "$work/floor" "$bench_dir/floor.c"
if [[ -z $btrfs_ino ]]; then
	if [[ ! -f $build/build.ninja ]]; then
		meson setup "$build" "$repo" --buildtype=release >"$work/meson.log" 2>&1 ||
			{ cat "$work/meson.log" >&2; die "meson setup failed"; }
	fi
	ninja -C "$build" cli/btrfs-ino >"$work/ninja.log" 2>&1 ||
		{ tail -n 30 "$work/ninja.log" >&2; die "build failed"; }
	btrfs_ino=$build/cli/btrfs-ino
fi
[[ -x $btrfs_ino ]] || die "$btrfs_ino: not executable"

# ---- the reference tree -------------------------------------------------

# Entries per subvolume (its root included) so that the whole tree, with
# the top directories, holds about $entries.
per_subvol=$(((entries - 3) / (subvols + snapshots)))
((per_subvol >= 2)) || per_subvol=2
dirs=$(((per_subvol - 1 + files_per_dir) / (files_per_dir + 1)))
params="entries=$entries subvols=$subvols snapshots=$snapshots per_subvol=$per_subvol layout=2"
$nested && params+=" shape=$shape layout=3"

# Directory number $2 of the first subvolume ($1): dNNNN, or nested, the
# first $top directories tNNN and the others tNNN/sNNNNN below them.
top=1
if $nested; then
	while ((top * top < dirs)); do top=$((top + 1)); done
fi
dir_path() {
	if ! $nested; then
		printf -v dir '%s/d%04d' "$1" "$2"
	elif (($2 < top)); then
		printf -v dir '%s/t%03d' "$1" "$2"
	else
		printf -v dir '%s/t%03d/s%05d' "$1" $(($2 % top)) "$2"
	fi
}

# The first subvolume: $dirs directories, the files fNN spread over them,
# $per_subvol entries in all; one xargs touch per ~100k paths.
fill_subvol() {
	local base=$1 left=$((per_subvol - 1 - dirs)) d i n dir
	local -a names=() some=()

	for ((i = 0; i < files_per_dir; i++)); do
		printf -v 'names[i]' 'f%02d' "$i"
	done
	for ((d = 0; d < dirs; d++)); do
		dir_path "$base" "$d"
		printf '%s\0' "$dir"
	done | xargs -0 mkdir --
	for ((d = 0; d < dirs && left > 0; d++)); do
		n=$((left < files_per_dir ? left : files_per_dir))
		left=$((left - n))
		dir_path "$base" "$d"
		dir+=/
		some=("${names[@]:0:n}")
		printf '%s\0' "${some[@]/#/$dir}"
	done | xargs -0 touch --
	# A hard link in place of the second file of the first directory.
	dir_path "$base" 0
	if [[ -e $dir/f01 ]]; then
		rm -- "$dir/f01"
		ln -- "$dir/f00" "$dir/f01"
	fi
}

build_tree() {
	local start=$EPOCHREALTIME i src dst size

	rm -f -- "$img"
	# Sparse; roughly 2 KiB of metadata room per entry (DUP) plus slack.
	size=$((1024 + entries / 512))M
	truncate -s "$size" -- "$img"
	mkfs.btrfs -q -f -- "$img" >/dev/null
	loop=$(losetup --find --show -- "$img")
	mkdir -p -- "$mnt"
	mount -t btrfs -o noatime -- "$loop" "$mnt"
	mkdir -- "$mnt/vols" "$mnt/snapshots"

	btrfs -q subvolume create -- "$mnt/vols/v000" >/dev/null
	progress "building the tree: $subvols subvolumes of $per_subvol entries, $snapshots snapshots"
	fill_subvol "$mnt/vols/v000"
	# The others are real copies (own metadata, same inode numbers), made
	# two at a time: one cp per subvolume.
	for ((i = 1; i < subvols; i++)); do
		printf -v dst '%s/vols/v%03d' "$mnt" "$i"
		btrfs -q subvolume create -- "$dst" >/dev/null
		printf '%s\0' "$dst"
	done | xargs -0 -r -P 2 -I '{}' cp -a --reflink=auto -- "$mnt/vols/v000/." '{}'
	# Snapshots share their source's metadata, as snapshots do.
	for ((i = 0; i < snapshots; i++)); do
		printf -v src '%s/vols/v%03d' "$mnt" $((i % subvols))
		printf -v dst '%s/snapshots/v%03d.snap' "$mnt" "$i"
		btrfs -q subvolume snapshot -r -- "$src" "$dst" >/dev/null
	done
	sync -f "$mnt"
	build_seconds=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f s", b - a }')
	printf '%s\n' "$params" >"$store/bench.params"
	printf '%s\n' "$build_seconds" >"$store/bench.built"
}

if [[ -n $keep && -f $img && -f $store/bench.params &&
	$(cat -- "$store/bench.params") == "$params" ]]; then
	build_seconds="$(cat -- "$store/bench.built" 2>/dev/null || echo "?") by an earlier run (--keep)"
	loop=$(losetup --find --show -- "$img")
	mkdir -p -- "$mnt"
	mount -t btrfs -o noatime -- "$loop" "$mnt"
else
	rm -f -- "$store/bench.params"
	build_tree
fi

# ---- the commands -------------------------------------------------------

# name|expected exit statuses|command (split with eval: $root, $floor, $btrfs_ino)
# shellcheck disable=SC2034 # root and floor are used through eval
floor=$work/floor root=$mnt
commands=(
	"find|0|find \"\$root\" -printf '%D %i %p\n'"
	"bfs|0|bfs \"\$root\" -printf '%D %i %p\n'"
	"fdfind -u|0|fdfind -u . \"\$root\""
	"floor --stat-all|0|\"\$floor\" --stat-all \"\$root\""
	"floor --dirs-only|0|\"\$floor\" --dirs-only \"\$root\""
	"walk --json|0|\"\$btrfs_ino\" walk --json \"\$root\""
	"walk|0|\"\$btrfs_ino\" walk \"\$root\""
	"audit --json|0 1|\"\$btrfs_ino\" audit --json \"\$root\""
	"audit --json (user)|0 1|setpriv --reuid=65534 --regid=65534 --clear-groups \"\$btrfs_ino\" audit --json \"\$root\""
)
optional="walk --json --threads 1"
if "$btrfs_ino" walk --help 2>/dev/null | grep -q -- --threads; then
	commands+=("walk --json --threads 1|0|\"\$btrfs_ino\" walk --json --threads 1 \"\$root\"")
fi
names=()
declare -A cmd_of expect_of
for c in "${commands[@]}"; do
	name=${c%%|*}
	rest=${c#*|}
	if [[ -n $only && ",$only," != *",$name,"* ]]; then
		continue
	elif [[ -z $only && $name == "$optional" ]] && ! $extra; then
		continue
	fi
	tool=${rest#*|}
	tool=${tool%% *}
	if [[ $tool != \"* ]] && ! command -v "$tool" >/dev/null; then
		printf '%s: %s not installed, skipped\n' "$prog" "$tool" >&2
		continue
	fi
	names+=("$name")
	expect_of[$name]=${rest%%|*}
	cmd_of[$name]=${rest#*|}
done
((${#names[@]})) || die "no command to run"

declare -A lines_of warm_of cold_of rss_of status_of
argv=()

# One timed run: sets wall and cpu (user + system, seconds) and rss (KiB);
# keeps the largest RSS.
time_once() {
	local name=$1 start end rc=0

	start=$EPOCHREALTIME
	eval "argv=(${cmd_of[$name]})"
	/usr/bin/time -f '%e %M %U %S' -o "$work/time" \
		"${argv[@]}" >/dev/null 2>"$work/stderr" || rc=$?
	end=$EPOCHREALTIME
	wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f", b - a }')
	rss=$(tail -n 1 -- "$work/time" | awk '{ print $2 }')
	cpu=$(tail -n 1 -- "$work/time" | awk '{ printf "%.2f", $3 + $4 }')
	if [[ " ${expect_of[$name]} " != *" $rc "* ]]; then
		status_of[$name]="exit $rc"
		printf '%s: %s: exit status %d:\n' "$prog" "$name" "$rc" >&2
		head -n 5 -- "$work/stderr" >&2
	fi
	if [[ -z ${rss_of[$name]-} ]] || ((rss > rss_of[$name])); then
		rss_of[$name]=$rss
	fi
}

median() {
	tr ' ' '\n' | sed '/^$/d' | sort -g |
		awk '{ v[NR] = $1 } END { if (!NR) exit; if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

drop_caches() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# Warm-up: one untimed run each, counting what it prints (for audit, the
# entries it audited), and checking the listings against find's: the
# floors must print the same lines, walk the same inode and path.
find_sum=
for name in "${names[@]}"; do
	progress "warm-up: $name"
	eval "argv=(${cmd_of[$name]})"
	"${argv[@]}" >"$work/out" 2>/dev/null || true
	case $name in
	"audit --json"*)
		lines_of[$name]=$(jq '[.exports[].entries] | add' "$work/out" 2>/dev/null) ||
			lines_of[$name]='?'
		;;
	*) lines_of[$name]=$(wc -l <"$work/out") ;;
	esac
	case $name in
	find | floor*) sum=$(LC_ALL=C sort "$work/out" | md5sum) ;;
	walk) sum=$(awk '{ print $3, $4 }' "$work/out" | LC_ALL=C sort | md5sum) ;;
	*) sum= ;;
	esac
	if [[ $name == find ]]; then
		find_sum=$sum
		find_ino_sum=$(awk '{ print $2, $3 }' "$work/out" | LC_ALL=C sort | md5sum)
	elif [[ -n $sum && $name == walk && -n $find_sum ]]; then
		[[ $sum == "$find_ino_sum" ]] || status_of[$name]="inodes or paths differ from find"
	elif [[ -n $sum && -n $find_sum ]]; then
		[[ $sum == "$find_sum" ]] || status_of[$name]="differs from find"
	fi
	rm -f -- "$work/out"
done

declare -A warm_runs cold_runs cpu_runs cpu_of
for ((r = 1; r <= runs; r++)); do
	for name in "${names[@]}"; do
		progress "warm $r/$runs: $name"
		time_once "$name"
		warm_runs[$name]+="$wall "
		cpu_runs[$name]+="$cpu "
	done
done
if $cold; then
	for ((r = 1; r <= runs; r++)); do
		for name in "${names[@]}"; do
			progress "cold $r/$runs: $name"
			drop_caches
			time_once "$name"
			cold_runs[$name]+="$wall "
		done
	done
fi
for name in "${names[@]}"; do
	warm_of[$name]=$(median <<<"${warm_runs[$name]}")
	cpu_of[$name]=$(median <<<"${cpu_runs[$name]}")
	cold_of[$name]=$(median <<<"${cold_runs[$name]-}")
done

# ---- report -------------------------------------------------------------

total_entries='?'
for name in find "floor --stat-all" "floor --dirs-only" walk "walk --json"; do
	if [[ -n ${lines_of[$name]-} ]]; then
		total_entries="${lines_of[$name]} entries (counted by $name)"
		break
	fi
done
printf '\n## btrfs-ino benchmark, %s\n\n' "$(date -u '+%Y-%m-%d %H:%M UTC')"
printf -- '- machine: %s, %s CPUs, %s GiB RAM, Linux %s\n' \
	"$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
	"$(nproc)" "$(awk '/^MemTotal/ { printf "%d", $2 / 1048576 + 0.5 }' /proc/meminfo)" \
	"$(uname -r)"
printf -- '- tree (shape %s): %s, %s subvolumes of %s entries, %s snapshots; built in %s\n' \
	"$shape" "$total_entries" "$subvols" "$per_subvol" "$snapshots" "$build_seconds"
printf -- '- load average at the end: %s (the figures are only as quiet as the machine was)\n' \
	"$(cut -d' ' -f1-3 /proc/loadavg)"
printf -- '- btrfs-ino %s (%s), %s; runs: %s, median wall, largest peak RSS\n\n' \
	"$(git -C "$repo" describe --always --dirty 2>/dev/null || echo '?')" \
	"$btrfs_ino" "$(bfs --version 2>/dev/null | head -n 1 || true)" "$runs"

printf '| %-23s | %9s | %9s | %9s | %8s | %9s | %s\n' command "warm wall" "cold wall" "peak RSS" "warm CPU" listed notes
printf '|%s|%s|%s|%s|%s|%s|%s\n' ------------------------- ----------- ----------- ----------- ---------- ----------- ------
for name in "${names[@]}"; do
	printf '| %-23s | %7s s | %7s s | %5s MiB | %6s s | %9s | %s\n' "$name" \
		"${warm_of[$name]}" "${cold_of[$name]:--}" \
		"$(awk -v k="${rss_of[$name]}" 'BEGIN { printf "%.1f", k / 1024 }')" \
		"${cpu_of[$name]}" "${lines_of[$name]}" "${status_of[$name]-}"
done
printf '\nwarm CPU: user + system time of all threads.  Every run, wall (s):\n'
for name in "${names[@]}"; do
	printf '  %-23s warm %s' "$name" "${warm_runs[$name]}"
	[[ -z ${cold_runs[$name]-} ]] || printf '  cold %s' "${cold_runs[$name]}"
	printf '\n'
done

# ratio NAME A B COLUMN TARGET: A's time over B's, against the target.
ratio() {
	local label=$1 a=$2 b=$3 col=$4 target=$5 x y
	local -n times=${col}_of

	x=${times[$a]-}
	y=${times[$b]-}
	if [[ -z $x || -z $y ]]; then
		printf '  %-52s %8s\n' "$label" "n/a"
		return
	fi
	awk -v l="$label" -v x="$x" -v y="$y" -v t="$target" 'BEGIN {
		r = x / y
		if (t == "-")
			printf "  %-52s %8.2f\n", l, r
		else
			printf "  %-52s %8.2f  (target <= %s: %s)\n", l, r, t, r <= t ? "met" : "MISSED"
	}'
}

# rss NAME TARGET: NAME's peak RSS in MiB, against the target (MiB).
rss() {
	local name=$1 target=$2

	[[ -n ${rss_of[$name]-} ]] || return 0
	awk -v l="peak RSS $name" -v k="${rss_of[$name]}" -v t="$target" 'BEGIN {
		m = k / 1024
		if (t == "-")
			printf "  %-52s %8.1f MiB\n", l, m
		else
			printf "  %-52s %8.1f MiB  (target <= %s MiB: %s)\n", l, m, t, m <= t ? "met" : "MISSED"
	}'
}

# Memory targets scale with the tree: 16 MiB for the walk at 3.36M entries;
# for the audit 20 MiB on the 1+1 shape (1.04M entries), 64 MiB at 3.36M.
audit_rss_target=64
[[ $shape == 1+1 ]] && audit_rss_target=20
printf '\nRatios (issue 16 targets; shape %s):\n' "$shape"
ratio "walk --json warm / find warm" "walk --json" find warm 0.35
ratio "walk --json warm / fdfind -u warm" "walk --json" "fdfind -u" warm 1.0
ratio "walk --json cold / fdfind -u cold" "walk --json" "fdfind -u" cold 1.0
ratio "walk --json warm / floor --dirs-only warm" "walk --json" "floor --dirs-only" warm 1.2
ratio "audit --json warm / walk --json warm" "audit --json" "walk --json" warm 1.3
ratio "audit --json (user) warm / walk --json warm" "audit --json (user)" "walk --json" warm 1.3
rss "walk --json" 16
rss "audit --json" "$audit_rss_target"
rss "audit --json (user)" "$audit_rss_target"
printf 'For reference:\n'
ratio "walk --json warm / bfs warm" "walk --json" bfs warm -
ratio "walk cold / fdfind -u cold" walk "fdfind -u" cold -
ratio "walk --json cold / find cold" "walk --json" find cold -
ratio "walk --json cold / floor --dirs-only cold" "walk --json" "floor --dirs-only" cold -
ratio "audit --json cold / walk --json cold" "audit --json" "walk --json" cold -
ratio "audit --json (user) cold / walk --json cold" "audit --json (user)" "walk --json" cold -
if [[ -n ${cmd_of[$optional]-} ]]; then
	ratio "walk --json --threads 1 warm / walk --json warm" "$optional" "walk --json" warm -
	ratio "walk --json --threads 1 cold / walk --json cold" "$optional" "walk --json" cold -
fi
rss walk -

if $perf; then
	progress "perf record: walk --json"
	[[ -n ${cmd_of[walk --json]-} ]] || cmd_of[walk --json]="\"\$btrfs_ino\" walk --json \"\$root\""
	eval "argv=(${cmd_of[walk --json]})"
	# DWARF unwinding: a release build has no frame pointers.
	perf record -q --call-graph dwarf,16384 -F 999 -o "$work/perf.data" -- \
		"${argv[@]}" >/dev/null 2>&1 || true
	report() {
		perf report -i "$work/perf.data" --stdio -g none "$@" 2>/dev/null |
			grep -v '^#' | sed '/^$/d' | cut -c 1-100
	}
	printf '\nperf record, btrfs-ino walk --json (warm), all threads; by DSO:\n'
	report --no-children --sort dso | head -n 8
	printf '\ntop symbols, self:\n'
	report --no-children --sort dso,sym --percent-limit 1 | head -n 30
	printf '\ntop symbols, with callees (3%% and more):\n'
	report --children --sort sym --percent-limit 3 | grep -v ' 0x0' | head -n 40
fi
