#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Audit and walk need no write access: on a read-only btrfs snapshot, on a
# read-only bind mount, on the whole btrfs remounted read-only and on a
# read-only tmpfs, audit exits 0 or 1 with as many entries as find and
# nothing unreadable, and walk lists what find lists.  The snapshot's
# subvolume is reported read_only, as "btrfs property get ro" says.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs tmpfs

fill() {
	mkdir -p -- "$1/a/b/c" "$1/d"
	touch -- "$1/a/f" "$1/a/b/g" "$1/d/h"
	ln -- "$1/a/f" "$1/d/hard"
	ln -s a "$1/link"
}

btrfs -q subvolume create -- "$BTRFS/vol" >/dev/null
fill "$BTRFS/vol"
btrfs -q subvolume snapshot -r -- "$BTRFS/vol" "$BTRFS/ro-snap" >/dev/null
check_eq "the snapshot is read-only" "ro=true" "$(btrfs property get -ts "$BTRFS/ro-snap" ro)"
mkdir -- "$WORK/mnt/ro-bind"
mount --bind -o ro -- "$BTRFS/vol" "$WORK/mnt/ro-bind"
fill "$TMPFS"

# audit_ro NAME PATH: audit and walk PATH, compare with find.
audit_ro() {
	local name=$1 path=$2 entries
	entries=$(find "$path" | wc -l)
	run_cli "$name-audit" 60 audit --json -q "$path"
	check_rc "$name-audit" 0 1
	check_eq "$name: audited entries" "$entries" "$(jq '.exports[0].entries' "$OUT/$name-audit")"
	check_eq "$name: unreadable" 0 "$(jq '.exports[0].unreadable' "$OUT/$name-audit")"
	check_eq "$name: error" null "$(jq -c '.exports[0].error' "$OUT/$name-audit")"
	run_cli "$name-walk" 60 walk -0 "$path"
	check_rc "$name-walk" 0
	find "$path" -print0 | LC_ALL=C sort -z >"$OUT/$name.find"
	sorted0 "$OUT/$name-walk" >"$OUT/$name-walk.sorted"
	check_files_eq "$name: walk lists find's paths" "$OUT/$name.find" "$OUT/$name-walk.sorted"
	echo "$name: $entries entries audited"
}

audit_ro ro-snapshot "$BTRFS/ro-snap"
check_eq "ro-snapshot: read_only" true "$(jq '.exports[0].subvolumes[0].read_only' "$OUT/ro-snapshot-audit")"
audit_ro ro-bind "$WORK/mnt/ro-bind"
mount -o remount,ro -- "$TMPFS"
audit_ro ro-tmpfs "$TMPFS"
umount -- "$WORK/mnt/ro-bind"
mount -o remount,ro -- "$BTRFS"
check_eq "btrfs is mounted read-only" ro "$(findmnt -n -o OPTIONS --target "$BTRFS" | cut -d, -f1)"
audit_ro ro-btrfs "$BTRFS"

finish
