#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Under RLIMIT_NOFILE=16 (prlimit), a tree 60 directories deep with
# siblings, files and subvolumes at every level is walked whole: the same
# paths and inodes as find, no EMFILE/ENFILE anywhere, exit 0; with --stat,
# --depth, --threads 8 and -L (a link into the middle of the chain) too;
# and audit completes with as many entries as find.
# On btrfs (nested subvolumes every 10 levels) and on tmpfs.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs tmpfs

LEVELS=60
for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	top=$fs/fds
	mkdir -- "$top"
	path=$top
	for ((i = 1; i <= LEVELS; i++)); do
		if [[ $fs == "$BTRFS" ]] && ((i % 10 == 0)); then
			btrfs -q subvolume create -- "$path/level$i" >/dev/null
		else
			mkdir -- "$path/level$i"
		fi
		mkdir -- "$path/side$i-a" "$path/side$i-b"
		touch -- "$path/file$i" "$path/side$i-a/x" "$path/side$i-b/y"
		path=$path/level$i
		((i != LEVELS / 2)) || mid=$path
	done
	# One link into the middle of the chain: -L walks that half twice.
	ln -s "$mid" "$top/link"
	find "$top" -printf '%p\t%i\n' | LC_ALL=C sort >"$OUT/$label.find"
	find -L "$top" -printf '%p\t%i\n' | LC_ALL=C sort >"$OUT/$label.find-L"

	CLI_PREFIX=(prlimit --nofile=16)
	for mode in default stat follow depth threads; do
		case $mode in
		default) args=() ;;
		stat) args=(--stat --stat-all) ;;
		follow) args=(-L) ;;
		depth) args=(--depth) ;;
		threads) args=(--threads 8) ;;
		esac
		name=$label-$mode
		run_cli "$name" 60 walk --json "${args[@]}" "$top"
		check_eq "$name: EMFILE/ENFILE anywhere" "" \
			"$(grep -h -i -e 'too many open files' -e '"errno":24' -e '"errno":23' "$OUT/$name" "$OUT/$name.err" | head -3)"
		check_rc "$name" 0
		expected=$OUT/$label.find
		[[ $mode != follow ]] || expected=$OUT/$label.find-L
		jq -r 'select(.event == "entry") | "\(.path)\t\(.ino)"' "$OUT/$name" | LC_ALL=C sort >"$OUT/$name.walk"
		check_files_eq "$name: paths and inodes equal find's" "$expected" "$OUT/$name.walk"
	done
	run_cli "$label-audit" 120 audit --json -q "$top"
	CLI_PREFIX=()
	check_rc "$label-audit" 0 1
	check_eq "$label-audit: entries" "$(wc -l <"$OUT/$label.find")" \
		"$(jq '.exports[0].entries' "$OUT/$label-audit")"
	check_eq "$label-audit: unreadable" 0 "$(jq '.exports[0].unreadable' "$OUT/$label-audit")"
	echo "$label: $(wc -l <"$OUT/$label.find") entries with 16 descriptors"
done

finish
