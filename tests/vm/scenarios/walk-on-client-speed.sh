#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino walk on an NFSv4.2 client of an ~18k-entry export: the server's identities,
# one statx per directory only; with RUNS > 0 (bench/walk-on-client.sh), also timed
# against GNU find.  The suite passes RUNS 0: timings are reported, never asserted, and
# under TCG the twelve timed runs took three of the scenario's four minutes.
set -euo pipefail
. ./lib.sh
need_btrfs_ino
start=$SECONDS
runs=${1:-0}

# Server: btrfs at /data, fex exported; fex holds 24 directories of 30 subdirectories of
# 24 files (with a hard link and a symlink in each of the first ones) and one nested
# subvolume, so identities come from the handles: 18,079 entries, 747 directories.
scratch_btrfs /data 1G
btrfs -q subvolume create /data/fex
btrfs -q subvolume create /data/fex/nested
fill_tree /data/fex/nested 2 3
for ((a = 0; a < 24; a++)); do
	for ((b = 0; b < 30; b++)); do
		printf '/data/fex/a%02d/b%02d\n' "$a" "$b"
	done
done >/tmp/dirs
xargs mkdir -p </tmp/dirs
while read -r d; do
	for ((f = 0; f < 24; f++)); do
		printf '%s/f%02d\n' "$d" "$f"
	done
done </tmp/dirs | xargs touch
ln /data/fex/a00/b00/f00 /data/fex/a00/b00/hardlink
ln -s f01 /data/fex/a00/b00/symlink
sync
dirs=$(find /data/fex -type d | wc -l)
say "server tree: $(find /data/fex | wc -l) entries, $dirs directories, after $((SECONDS - start))s"
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'
nfs_mount 4.2 /mnt/c

# records JSON ROOT: path relative to ROOT, type, ino, subvolid of each entry, sorted.
records() {
	jq -r --arg root "$2" 'select(.event == "entry") |
		[(if .path == $root then "." else .path | ltrimstr($root + "/") end),
		 .type, .ino, .subvolid] | @tsv' "$1" | LC_ALL=C sort
}

# Expectations:
#   - the client's walk gives every entry the server's walk's inode and subvolume
#     (walk-on-client compares with the client's walk --stat-all);
#   - it makes at most one statx per directory, plus a few (strace -c, helper threads
#     included), where it made one per entry before;
#   - GNU find lists the same entries, but for the nested subvolume's, whose root it
#     takes for a loop (the problem this tool is for).
btrfs-ino walk -q --json /data/fex >/tmp/server.json
records /tmp/server.json /data/fex >/tmp/server.tsv
btrfs-ino walk -q --json /mnt/c >/tmp/client.json
records /tmp/client.json /mnt/c >/tmp/client.tsv
check "client walk: the server's inode, type and subvolid for every path" \
	diff -u /tmp/server.tsv /tmp/client.tsv
check "client walk: the nested subvolume has its own subvolid" \
	test "$(awk -F'\t' '$1 == "nested" { print $4 }' /tmp/client.tsv)" != \
	"$(awk -F'\t' '$1 == "." { print $4 }' /tmp/client.tsv)"
# find meets the nested subvolume's root as a loop (inode 256 again) and lists neither it nor what it holds.
check "client find: the walk's paths, but for those below the nested subvolume" \
	diff -u <(find /mnt/c 2>/dev/null | sed 's|^/mnt/c/\{0,1\}||; s|^$|.|' | LC_ALL=C sort) \
	<(cut -f1 /tmp/client.tsv | grep -v '^nested\(/\|$\)')

# drop: the page cache, dentries and inodes, for a cold run.
drop() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}
# wall COMMAND...: seconds COMMAND takes, output discarded.
wall() {
	local t0=$EPOCHREALTIME
	"$@" >/dev/null 2>&1 || true
	awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f\n", b - a }'
}
# median: of the numbers on stdin, one per line.
median() {
	LC_ALL=C sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
# timings: walk --json and find as the users run it (which stats directories only,
# trusting d_type), cold (caches dropped on client and server, the same kernel) and
# warm, interleaved, median of $runs. Reported, not asserted: TCG timings vary. Before
# strace, which under TCG slows a call a thousandfold.
timings() {
	declare -A times
	for mode in cold warm; do
		for ((r = 0; r < runs; r++)); do
			for cmd in walk find; do
				[[ $mode == cold ]] && drop
				case $cmd in
				walk) t=$(wall btrfs-ino walk -q --json /mnt/c) ;;
				find) t=$(wall find /mnt/c) ;;
				esac
				times[$mode-$cmd]+="$t "
			done
		done
	done
	say "timings under TCG (s, each run; median of $runs):"
	for key in cold-walk cold-find warm-walk warm-find; do
		printf '   %-10s %s -> %s\n' "$key" "${times[$key]}" "$(tr ' ' '\n' <<<"${times[$key]}" | sed '/^$/d' | median)"
	done
	for mode in cold warm; do
		w=$(tr ' ' '\n' <<<"${times[$mode-walk]}" | sed '/^$/d' | median)
		f=$(tr ' ' '\n' <<<"${times[$mode-find]}" | sed '/^$/d' | median)
		awk -v m="$mode" -v w="$w" -v f="$f" -v t="$([[ $mode == cold ]] && echo 0.5 || echo 1.0)" \
			'BEGIN { r = w / f; printf "== ratio walk --json / find, %s: %.2f (target <= %s: %s)\n", m, r, t, r <= t ? "met" : "missed" }'
	done
}
((runs == 0)) || timings

# syscalls COMMAND...: strace -c -f's table of COMMAND's calls, in /tmp/strace.
syscalls() {
	strace -f -c -o /tmp/strace "$@" >/dev/null 2>&1 || true
}
# calls NAME: how many NAME calls /tmp/strace counts (0 if none).
calls() {
	awk -v n="$1" '$NF == n { c = $4 } END { print c + 0 }' /tmp/strace
}
syscalls btrfs-ino walk -q --json /mnt/c
walk_statx=$(calls statx)
walk_table=$(grep -E ' (statx|newfstatat|openat|getdents64|name_to_handle_at|close)$' /tmp/strace)
say "strace -c -f, walk --json (warm):"
sed 's/^/   /' <<<"$walk_table"
if ((runs > 0)); then
	syscalls find /mnt/c
	say "strace -c -f, find (warm):"
	grep -E ' (statx|newfstatat|openat|getdents64|close|fstat)$' /tmp/strace | sed 's/^/   /'
fi
check "client walk: statx at most once per directory, plus 32 ($walk_statx <= $dirs + 32)" \
	test "$walk_statx" -le $((dirs + 32))

umount /mnt/c
say "scenario took $((SECONDS - start))s"
finish
