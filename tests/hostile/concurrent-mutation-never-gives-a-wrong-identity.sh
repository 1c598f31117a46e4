#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Files and directories created, renamed and deleted while walks and an
# audit run: no crash, no hang (each run is bounded in time), exit 0 or 1,
# every vanished entry either absent or an error record (ENOENT, or ESTALE
# for a directory that changed under the walk), and never a wrong identity:
# every entry reported that still exists afterwards has the device, the
# subvolume and the inode that findmnt, btrfs inspect-internal and stat give.
# The mutators never reuse a name, so a path that exists afterwards names the
# inode it named when the walk saw it.  On btrfs (in a subvolume) and tmpfs.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs tmpfs

DIRS=60
FILES=200

# mutate TOP ID: create, rename and delete below TOP, forever, with names
# that contain ID and a counter, so that no name is ever used twice.
mutate() {
	local top=$1 id=$2 i=0 d victim
	trap 'exit 0' TERM
	while :; do
		i=$((i + 1))
		d=$top/d$((RANDOM % DIRS))
		case $((i % 6)) in
		0) mkdir -p -- "$top/new-$id-$i/a/b" && : >"$top/new-$id-$i/a/b/f" ;;
		1) : >"$d/n-$id-$i" ;;
		2) # A file renamed to a fresh name.
			victim=$(find "$d" -maxdepth 1 -type f -name 'f*' -print -quit)
			[[ -z $victim ]] || mv -- "$victim" "$victim.r$id-$i" ;;
		3) # A directory renamed (its whole subtree moves); only d0-d9,
			# so that entries of the others survive to be checked.
			victim=$(find "$top" -mindepth 1 -maxdepth 1 -type d -name 'd[0-9]' -print -quit)
			[[ -z $victim ]] || mv -- "$victim" "$victim.r$id-$i" ;;
		4) rm -f -- "$d"/f0$((RANDOM % 10))* ;;
		5) # A directory deleted with its subtree.
			victim=$(find "$top" -mindepth 1 -maxdepth 1 -type d -name 'new-*' -print -quit)
			[[ -z $victim ]] || rm -rf -- "$victim" ;;
		esac 2>/dev/null || true
	done
}

for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	if [[ $fs == "$BTRFS" ]]; then
		btrfs -q subvolume create -- "$fs/vol" >/dev/null
		subvolid=$(btrfs inspect-internal rootid -- "$fs/vol")
	else
		mkdir -- "$fs/vol"
		subvolid=0
	fi
	top=$fs/vol
	dev=$(findmnt -n -o MAJ:MIN --target "$fs" | tr -d " ")
	for ((d = 0; d < DIRS; d++)); do
		mkdir -p -- "$top/d$d/sub/deeper"
		(cd -- "$top/d$d" && seq -f 'f%04g' 1 "$FILES" | xargs touch -- &&
			touch sub/s1 sub/s2 sub/deeper/x)
	done

	mutate "$top" 1 &
	m1=$!
	mutate "$top" 2 &
	m2=$!
	sleep 0.2
	modes=(default stat stat-all follow threads1 threads8)
	for round in 1 2 3; do
		for mode in "${modes[@]}"; do
			case $mode in
			default) args=() ;;
			stat) args=(--stat) ;;
			stat-all) args=(--stat --stat-all) ;;
			follow) args=(-L --depth) ;;
			threads1) args=(--threads 1) ;;
			threads8) args=(--threads 8 --stat) ;;
			esac
			name=$label-$mode-$round
			run_cli "$name" 60 walk --json "${args[@]}" "$top"
			check_rc "$name" 0 1
			check_json "$name"
			check_eq "$name: records other than entries and ENOENT/ESTALE errors" "" \
				"$(jq -c 'select(.event != "entry" and (.event != "error" or (.errno != 2 and .errno != 116)))' "$OUT/$name" | head -3)"
		done
		run_cli "$label-audit-$round" 120 audit --json -q "$top"
		check_rc "$label-audit-$round" 0 1
		jq -e '.exports[0].entries > 0' "$OUT/$label-audit-$round" >/dev/null ||
			fail "$label-audit-$round: no entries audited: $(head -c 300 "$OUT/$label-audit-$round")"
	done
	kill "$m1" "$m2"
	wait "$m1" "$m2" || true

	# The mutation must have overlapped the walks, or this proves nothing.
	renamed=$(find "$top" -name '*.r[12]-*' | wc -l)
	created=$(find "$top" -name '*-[12]-*' | wc -l)
	((renamed > 0 && created > 0)) || fail "$label: the mutators did nothing ($renamed renamed, $created created)"

	for round in 1 2 3; do
		for mode in "${modes[@]}"; do
			name=$label-$mode-$round
			jq -r --arg t "$top" 'select(.event == "entry" and .path != $t) |
				[.path, .dev, (.subvolid|tostring), (.ino|tostring)] | @tsv' "$OUT/$name" |
				LC_ALL=C sort -u >"$OUT/$name.keys"
			cut -f1 "$OUT/$name.keys" | xargs -d '\n' stat -c "%n	$dev	$subvolid	%i" 2>/dev/null |
				LC_ALL=C sort >"$OUT/$name.expected" || true
			join -t $'\t' "$OUT/$name.expected" "$OUT/$name.keys" >"$OUT/$name.joined"
			check_eq "$name: surviving entries whose identity is not stat's" "" \
				"$(awk -F '\t' '$2 != $5 || $3 != $6 || $4 != $7' "$OUT/$name.joined" | head -5)"
			survived=$(wc -l <"$OUT/$name.joined")
			((survived > 0)) || fail "$name: no walked entry survived to be checked"
			echo "$name: $(jq -s length "$OUT/$name") records," \
				"$(jq -c 'select(.event == "error")' "$OUT/$name" | wc -l) errors, $survived checked against stat"
		done
	done
	echo "$label: $renamed renamed and $created created during the walks"
done

finish
