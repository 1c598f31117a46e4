#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Peak RSS of "btrfs-ino audit --json" on a subvolume and its snapshot, where
# every client key collides once, does not grow with the number of keys, as
# root and as nobody (who stats for nlink instead of reading the trees):
#   small: a subvolume of  20,000 files + its snapshot -> Rsmall
#   big:   a subvolume of 200,000 files + its snapshot -> Rbig
# Asserted: Rbig <= Rsmall + NOISE (2 MiB).  A record per colliding key (as
# the audit kept before, ~140 bytes) costs 180,000 * 140 bytes = 24 MiB more.
# The plain collisions counted equal find's (entries whose inode number is
# met under two st_dev, one per subvolume).  Under AddressSanitizer RSS
# means nothing, so only the counts are checked there.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs
# nobody must be able to reach the scratch mount.
chmod 0755 -- "$WORK" "$WORK/mnt"
command -v /usr/bin/time >/dev/null || skip_or_fail "needs /usr/bin/time (package time)"
command -v jq >/dev/null || skip_or_fail "needs jq"

NOISE=2048 # KiB
check_rss=true
if is_sanitized; then
	echo "note: sanitized build, RSS bounds not asserted"
	check_rss=false
fi

# make_tree DIR FILES: DIR holds subvolume sv of FILES files (500 a
# directory, each its own inode) and its snapshot snap.
make_tree() {
	local dir=$1 files=$2 i
	mkdir -- "$dir"
	btrfs -q subvolume create -- "$dir/sv" >/dev/null
	for ((i = 1; i <= files / 500; i++)); do
		mkdir -- "$dir/sv/d$i"
		(cd "$dir/sv/d$i" && seq -f 'f%03g' 1 500 | xargs touch --)
	done
	btrfs -q subvolume snapshot -- "$dir/sv" "$dir/snap" >/dev/null
	chmod -R a+rX -- "$dir"
}

# audit_rss NAME DIR [PREFIX...]: audit DIR as JSON; sets RSS (KiB).
audit_rss() {
	local name=$1 dir=$2 rc
	shift 2
	set +e
	timeout -k 5 120 /usr/bin/time -f %M -o "$OUT/$name.rss" \
		"$@" "$BTRFS_INO" audit --json "$dir" >"$OUT/$name.json" 2>"$OUT/$name.err"
	rc=$?
	set -e
	((rc == 0 || rc == 1)) || fail "$name: audit exited $rc"
	RSS=$(tail -n 1 "$OUT/$name.rss")
	check_eq "$name: plain collisions" \
		"$(find "$dir" -printf '%D %i\n' | awk '
			!(($1 " " $2) in seen) { seen[$1 " " $2] = 1; devs[$2]++ }
			{ n[$2]++ }
			END { for (i in n) if (devs[i] >= 2) t += n[i]; print t + 0 }')" \
		"$(jq '.exports[0].collisions.plain' "$OUT/$name.json")"
	echo "$name: peak RSS $RSS KiB"
}

make_tree "$BTRFS/small" 20000
make_tree "$BTRFS/big" 200000
for who in root nobody; do
	prefix=()
	[[ $who == root ]] || prefix=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --)
	audit_rss "$who-small" "$BTRFS/small" "${prefix[@]}"
	rsmall=$RSS
	audit_rss "$who-big" "$BTRFS/big" "${prefix[@]}"
	rbig=$RSS
	if $check_rss; then
		((rbig <= rsmall + NOISE)) ||
			fail "$who: audit RSS grew with the colliding keys: 40k entries ${rsmall} KiB, 400k ${rbig} KiB (bound +${NOISE} KiB)"
	fi
done

finish
