#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Symbolic link loops (a->b->a, self->self, up->.., an absolute link to the
# top), a link to /, a bind mount of a directory below itself, and mounts
# appearing and vanishing under the walk: every run ends (bounded in time).
#  -P: every link is listed as a symlink and nothing below it; exit 0.
#  -L --xdev: up and the absolute link are loop records naming the top as
#      ancestor; a, b and self are ELOOP errors; / is listed as a mount root
#      and not entered; exit 1.
#  The bind mount: a loop record at the mount point, ancestor the top.
#  A tmpfs mounted and unmounted over and over at a directory while walks
#  run: exit 0 or 1, only ENOENT/ESTALE errors, and with --xdev nothing
#  below a directory reported as a mount root.
# On btrfs and on tmpfs.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs tmpfs

for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	top=$fs/loops
	mkdir -p -- "$top/dir/sub" "$top/bindpoint" "$top/mountpoint"
	touch -- "$top/dir/sub/file"
	ln -s b "$top/a"
	ln -s a "$top/b"
	ln -s self "$top/self"
	ln -s .. "$top/dir/up"
	ln -s "$top" "$top/dir/sub/abs"
	ln -s / "$top/root"

	run_cli "$label-P" 30 walk --json "$top"
	check_rc "$label-P" 0
	check_eq "$label -P: symlinks listed" "$top/a $top/b $top/dir/sub/abs $top/dir/up $top/root $top/self" \
		"$(jq -r 'select(.type == "symlink") | .path' "$OUT/$label-P" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')"
	check_eq "$label -P: entries" "$(find "$top" | wc -l)" "$(jq -c 'select(.event == "entry")' "$OUT/$label-P" | wc -l)"

	run_cli "$label-L" 60 walk --json -L --xdev "$top"
	check_rc "$label-L" 1
	check_eq "$label -L: loops (path ancestor)" "$top/dir/sub/abs $top
$top/dir/up $top" "$(jq -r 'select(.event == "loop") | "\(.path) \(.ancestor)"' "$OUT/$label-L" | LC_ALL=C sort)"
	check_eq "$label -L: errors (path errno)" "$top/a 40
$top/b 40
$top/self 40" "$(jq -r 'select(.event == "error") | "\(.path) \(.errno)"' "$OUT/$label-L" | LC_ALL=C sort)"
	check_eq "$label -L: / is a mount root, not entered" "true" \
		"$(jq -r --arg p "$top/root" 'select(.path == $p) | .mount_root' "$OUT/$label-L")"
	check_eq "$label -L: nothing below the link to /" "" \
		"$(jq -r --arg p "$top/root/" 'select(.path | startswith($p)) | .path' "$OUT/$label-L" | head -3)"

	# A bind mount of the top below itself.
	mount --bind -- "$top" "$top/bindpoint"
	run_cli "$label-bind" 30 walk --json "$top"
	check_rc "$label-bind" 1
	check_eq "$label bind: loop at the bind mount" "$top/bindpoint $top" \
		"$(jq -r 'select(.event == "loop") | "\(.path) \(.ancestor)"' "$OUT/$label-bind")"
	run_cli "$label-bind-L" 60 walk --json -L --xdev "$top"
	check_rc "$label-bind-L" 1
	umount -- "$top/bindpoint"

	# Mounts appearing and vanishing during the walk.
	mkdir -p -- "$top/many"
	(cd -- "$top/many" && seq -f 'f%05g' 1 20000 | xargs touch --)
	(
		trap 'exit 0' TERM
		while :; do
			mount -t tmpfs -o size=1m tmpfs "$top/mountpoint" 2>/dev/null &&
				touch "$top/mountpoint/on-tmpfs"
			umount "$top/mountpoint" 2>/dev/null || true
		done
	) &
	mounter=$!
	for round in 1 2 3; do
		for mode in plain xdev; do
			name=$label-mounting-$mode-$round
			args=()
			[[ $mode == plain ]] || args=(--xdev)
			run_cli "$name" 60 walk --json "${args[@]}" "$top"
			check_rc "$name" 0 1
			check_json "$name"
			check_eq "$name: records other than entries and ENOENT/ESTALE errors" "" \
				"$(jq -c 'select(.event != "entry" and (.event != "error" or (.errno != 2 and .errno != 116)))' "$OUT/$name" | head -3)"
			if [[ $mode == xdev ]]; then
				check_eq "$name: entries below a mount root with --xdev" "" \
					"$(jq -r --arg p "$top/mountpoint" 'select(.path == $p and .mount_root) | .path' "$OUT/$name" |
						while read -r _; do jq -r --arg p "$top/mountpoint/" 'select(.path | startswith($p)) | .path' "$OUT/$name"; done | head -3)"
			fi
		done
	done
	kill "$mounter"
	wait "$mounter" || true
	while mountpoint -q -- "$top/mountpoint"; do umount -- "$top/mountpoint"; done
	echo "$label: mounted-on states seen:" \
		"$(cat "$OUT/$label"-mounting-* | jq -r --arg p "$top/mountpoint" 'select(.path == $p) | .fstype' | sort | uniq -c | tr -s ' \n' ' ')"
done

finish
