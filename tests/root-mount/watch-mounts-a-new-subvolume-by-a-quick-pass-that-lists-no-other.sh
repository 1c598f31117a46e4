#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, once idle: a subvolume created below the export is mounted
# by a quick pass, which plans only it: between its creation and its mount
# the keeper never lists the subvolume tree (the full pass's search of
# every ROOT_REF item from objectid 0, seen by strace), and it mounts the
# subvolume btrfs-progs names.
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
ioctls_trace || finish
mark=$(wc -l <"$OUT/ioctls")
btrfs -q subvolume create "$FEX/spool/new"
id=$(btrfs inspect-internal rootid "$FEX/spool/new")
eventually mountpoint -q -- "$FEX/spool/new" ||
	fail "new is not mounted $WATCH_DEADLINE s after it was made"
kill "$TRACER_PID" 2>/dev/null || true
wait "$TRACER_PID" 2>/dev/null || true
tail -n +"$((mark + 1))" "$OUT/ioctls" >"$OUT/since"
check_eq "the mount is of new's subvolume" "subvolid=$id" \
	"$(findmnt -n -o OPTIONS --mountpoint "$FEX/spool/new" | tr , '\n' | grep '^subvolid=')"
# The calls up to the first mount: the quick pass's.
sed '/ mount(/q' "$OUT/since" >"$OUT/before-mount"
check_eq "listings of the whole subvolume tree before the mount" 0 \
	"$(grep -c "$LISTING" "$OUT/before-mount" || true)"
grep -q "tree_id=BTRFS_ROOT_TREE_OBJECTID, min_objectid=$id, max_objectid=$id, .*min_type=BTRFS_ROOT_BACKREF_KEY" "$OUT/before-mount" ||
	fail "strace saw no search of new's own link before the mount"
finish
