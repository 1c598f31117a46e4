#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Peak RSS of "btrfs-ino walk --json" does not grow with the number of
# entries, only with the largest directory (the walker reads each directory
# whole: about 24 bytes a short name).  On the filesystem named by the
# argument, btrfs or tmpfs (one test each, to stay within two minutes):
#   tree of 100 x 1,000 entries (100k)       -> R100k
#   the same tree grown to 1,000 x 1,000 (1M) -> R1M
#   one directory of 200,000 entries          -> R200k
# Asserted bounds (DIRENT_COST = 64 bytes an entry of the largest directory,
# NOISE = 1 MiB of allocator and libc noise):
#   R1M   <= R100k + NOISE                     (same largest directory)
#   R200k <= R100k + 200000 * DIRENT_COST + NOISE
# Every entry is listed: counts equal find's.  Under AddressSanitizer RSS
# means nothing (quarantine), so only the counts are checked there.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
SCRATCH_TMPFS_OPTS=size=3g,nr_inodes=2m
case ${1:-} in
btrfs | tmpfs) setup_scratch "$1" ;;
*)
	echo "usage: $0 btrfs|tmpfs" >&2
	exit 2
	;;
esac
command -v /usr/bin/time >/dev/null || skip_or_fail "needs /usr/bin/time (package time)"

DIRENT_COST=64
NOISE=1024 # KiB
WIDE=200000
check_rss=true
if is_sanitized; then
	echo "note: sanitized build, RSS bounds not asserted"
	check_rss=false
fi

# walk_rss NAME DIR: walk DIR as JSON; sets RSS (KiB) and ENTRIES.
walk_rss() {
	local name=$1 dir=$2
	set +e
	timeout -k 5 120 /usr/bin/time -f %M -o "$OUT/$name.rss" \
		"$BTRFS_INO" walk --json "$dir" 2>"$OUT/$name.err" |
		grep -c '^{"event":"entry"' >"$OUT/$name.count"
	RC=${PIPESTATUS[0]}
	set -e
	((RC == 0)) || fail "$name: walk exited $RC"
	RSS=$(tail -n 1 "$OUT/$name.rss")
	ENTRIES=$(cat "$OUT/$name.count")
	check_eq "$name: entries walked" "$(find "$dir" | wc -l)" "$ENTRIES"
	echo "$name: $ENTRIES entries, peak RSS $RSS KiB"
}

for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	seed=$fs/seed
	mkdir -- "$seed" "$fs/tree" "$fs/wide"
	(cd "$seed" && seq -f 'f%04g' 1 1000 | xargs touch --)
	# Hard-linked copies: 1,000 names a directory, made fast.
	for i in $(seq -f 'd%04g' 1 100); do
		cp -al -- "$seed" "$fs/tree/$i"
	done
	walk_rss "$label-100k" "$fs/tree"
	r100k=$RSS
	for i in $(seq -f 'd%04g' 101 1000); do
		cp -al -- "$seed" "$fs/tree/$i"
	done
	walk_rss "$label-1M" "$fs/tree"
	r1m=$RSS
	((ENTRIES > 1000000)) || fail "$label: the big tree has only $ENTRIES entries"
	(cd "$fs/wide" && seq -f 'w%06g' 1 "$WIDE" | xargs touch --)
	walk_rss "$label-200k-dir" "$fs/wide"
	r200k=$RSS
	if $check_rss; then
		((r1m <= r100k + NOISE)) ||
			fail "$label: RSS grew with the entry count: 100k ${r100k} KiB, 1M ${r1m} KiB (bound +${NOISE} KiB)"
		bound=$((r100k + WIDE * DIRENT_COST / 1024 + NOISE))
		((r200k <= bound)) ||
			fail "$label: a $WIDE-entry directory costs more than $DIRENT_COST bytes an entry: ${r200k} KiB > ${bound} KiB"
	fi
done

finish
