#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A chain of 400 directories with 100-byte names (paths over 40,000 bytes,
# nearly ten times PATH_MAX), a file at every level: the walk lists every entry the
# test created, with its path intact, in -0, text and JSON output, and each
# with the inode find gives it; on btrfs and on tmpfs, also under
# RLIMIT_NOFILE=16 (the walker must reopen evicted ancestors name by name).
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs tmpfs

LEVELS=400
pad=$(printf '%096d' 0 | tr 0 x)

for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	top=$fs/deep
	mkdir -- "$top"
	# What the test creates, as NUL-separated paths, built as it goes.
	expected=$OUT/$label.expected
	printf '%s\0' "$top" >"$expected"
	path=$top
	(
		cd -- "$top"
		for ((i = 1; i <= LEVELS; i++)); do
			printf -v name 'L%03d%s' "$i" "$pad"
			mkdir -- "$name"
			cd -- "$name"
			: >"file at level $i"
		done
	)
	for ((i = 1; i <= LEVELS; i++)); do
		printf -v name 'L%03d%s' "$i" "$pad"
		path+=/$name
		printf '%s\0%s\0' "$path" "$path/file at level $i" >>"$expected"
	done
	((${#path} > 40000)) || fail "$label: deepest path is only ${#path} bytes"
	sorted0 "$expected" >"$expected.sorted"

	run_cli "$label-print0" 120 walk -0 "$top"
	check_rc "$label-print0" 0
	sorted0 "$OUT/$label-print0" >"$OUT/$label-print0.sorted"
	check_files_eq "$label: -0 paths" "$expected.sorted" "$OUT/$label-print0.sorted"

	run_cli "$label-json" 120 walk --json "$top"
	check_rc "$label-json" 0
	json_paths "$OUT/$label-json" >"$OUT/$label-json.paths"
	sorted0 "$OUT/$label-json.paths" >"$OUT/$label-json.sorted"
	check_files_eq "$label: JSON paths" "$expected.sorted" "$OUT/$label-json.sorted"

	# Text: "DEV SUBVOLID INO PATH"; these names need no escaping.
	run_cli "$label-text" 120 walk "$top"
	check_rc "$label-text" 0
	cut -d ' ' -f 4- "$OUT/$label-text" | tr '\n' '\0' | LC_ALL=C sort -z >"$OUT/$label-text.sorted"
	check_files_eq "$label: text paths" "$expected.sorted" "$OUT/$label-text.sorted"

	# Identities: the inode find (fts, no PATH_MAX limit) gives each path.
	find "$top" -printf '%p\t%i\n' | LC_ALL=C sort >"$OUT/$label.find-ino"
	awk '{ ino = $3; sub(/^[^ ]* [^ ]* [^ ]* /, ""); print $0 "\t" ino }' \
		"$OUT/$label-text" | LC_ALL=C sort >"$OUT/$label.walk-ino"
	check_files_eq "$label: path and inode" "$OUT/$label.find-ino" "$OUT/$label.walk-ino"

	# The same with almost no descriptors to keep ancestors open.
	CLI_PREFIX=(prlimit --nofile=16)
	run_cli "$label-nofile16" 120 walk -0 "$top"
	CLI_PREFIX=()
	check_rc "$label-nofile16" 0
	check_eq "$label: errors with RLIMIT_NOFILE=16" "" "$(head -c 300 "$OUT/$label-nofile16.err")"
	sorted0 "$OUT/$label-nofile16" >"$OUT/$label-nofile16.sorted"
	check_files_eq "$label: -0 paths with RLIMIT_NOFILE=16" "$expected.sorted" "$OUT/$label-nofile16.sorted"
	echo "$label: $(tr -cd '\0' <"$expected" | wc -c) entries, deepest path ${#path} bytes"
done

# Removing it needs no PATH_MAX either: rm -r works from descriptors.
finish
