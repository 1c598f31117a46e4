#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# #36: the snapshot hook once ran "btrfs inspect-internal rootid SNAPSHOT"
# and "mount ... SNAPSHOT": with the snapshot directory swapped for a link
# to a directory outside the export, rootid answered 5 there and the whole
# top level was mounted outside the export.  Now the hook runs btrfs-ino
# mount on the export: after the same swap, run as the snapshot job runs it
# (the new snapshot's path through the link as its argument), it mounts
# nothing outside the export, nothing of subvolume 5, and the snapshot
# where it really is.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
suggest hook --exports "$EXPORTS" --format snapshot-hook "$FEX"
check_suggest_rc hook 0

SNAPDIR=$FEX/spool/.snapshot
btrfs -q subvolume snapshot -- "$FEX/spool" "$SNAPDIR/s4" >/dev/null
# The swap: the snapshot directory moved away, a link to a directory of the
# top level (outside the export) in its place, holding a directory s4.
mv -- "$SNAPDIR" "$SNAPDIR.real"
ln -s -- "$MNT/top dir" "$SNAPDIR"
mkdir -- "$MNT/top dir/s4"
check_eq "rootid through the link" 5 "$(btrfs inspect-internal rootid -- "$SNAPDIR/s4")"

mkdir -- "$OUT/bin"
ln -s -- "$BTRFS_INO" "$OUT/bin/btrfs-ino"
# The namespace's mounts before and after (the host's change meanwhile).
# shellcheck disable=SC2016 # expanded by the inner sh
PATH=$OUT/bin:$PATH BLKID_FILE=/dev/null unshare -m --propagation private -- \
	sh -c 'findmnt -n -r -o TARGET,OPTIONS | sort >"$2.before"
		sh "$0" "$1" >/dev/null; echo "rc=$?"
		findmnt -n -r -o TARGET,OPTIONS | sort >"$2.after"' \
	"$OUT/hook" "$SNAPDIR/s4" "$OUT/mounts" >"$OUT/rc" 2>"$OUT/rc.err"
check_eq "the hook's exit status" "rc=0" "$(cat "$OUT/rc")"
comm -13 "$OUT/mounts.before" "$OUT/mounts.after" >"$OUT/new"
check_eq "no new mount outside the export" "" \
	"$(awk -v top="$FEX" 'index($1, top "/") != 1' "$OUT/new")"
check_eq "no new mount of subvolume 5" "" "$(grep -E '(^|,)subvolid=5(,|$)' "$OUT/new" || true)"
check_eq "the snapshot mounted where it is" \
	"$SNAPDIR.real/s4 subvolid=$(btrfs inspect-internal rootid -- "$SNAPDIR.real/s4")" \
	"$(awk -v p="$SNAPDIR.real/s4" '$1 == p' "$OUT/new" | sed 's/ .*subvolid=\([0-9]*\).*/ subvolid=\1/')"
finish
