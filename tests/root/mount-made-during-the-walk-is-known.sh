#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A mount made after the walk started (an automount it triggers, an NFS
# submount) is not in the mount table read at the start: the walk reads the
# table again and names its filesystem type.  The walk is held on a full
# pipe, not timed: it has written its first records and waits while the
# tmpfs is mounted on a directory it has listed but not reached.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch

mkdir -- "$WORK/tree"
mount -t tmpfs tmpfs "$WORK/tree"
# tmpfs lists the newest entry first: the mount point comes after the files.
mkdir -- "$WORK/tree/zzz-mounted-later" "$WORK/tree/aaa-first"
(cd "$WORK/tree/aaa-first" && seq -f 'file-%05g' 20000 | xargs touch)

mkfifo -- "$WORK/pipe"
"$BTRFS_INO" walk --json --threads 1 "$WORK/tree" >"$WORK/pipe" 2>"$OUT/walk.err" &
walker=$!
exec 3<"$WORK/pipe"
IFS= read -r first <&3
mount -t tmpfs -o size=1m later "$WORK/tree/zzz-mounted-later"
touch -- "$WORK/tree/zzz-mounted-later/on-the-new-mount"
{ printf '%s\n' "$first"; cat <&3; } >"$OUT/walk"
exec 3<&-
WALK_RC=0
wait "$walker" || WALK_RC=$?
check_walk_rc walk 0
check_json walk

record() {
	jq -c --arg p "$WORK/tree/$1" 'select(.path == $p) | [.fstype, .mount_root]' "$OUT/walk"
}
check_eq "the mount point: fstype, mount_root" '["tmpfs",true]' "$(record zzz-mounted-later)"
check_eq "a file on the new mount" '["tmpfs",false]' "$(record zzz-mounted-later/on-the-new-mount)"
check_eq "its device is the new mount's" \
	"$(findmnt -n -o MAJ:MIN -- "$WORK/tree/zzz-mounted-later" | tr -d " ")" \
	"$(jq -r --arg p "$WORK/tree/zzz-mounted-later" 'select(.path == $p) | .dev' "$OUT/walk")"
check_eq "entries" 20004 "$(jq -s 'map(select(.event == "entry")) | length' "$OUT/walk")"

finish
