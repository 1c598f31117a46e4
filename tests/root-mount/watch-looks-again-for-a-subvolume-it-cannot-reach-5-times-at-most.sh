#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch, when the subvolume tree lists a new subvolume that no
# lookup finds (a snapshot whose commit is still being written: btrfs links
# it in the tree before its name appears), makes its quick pass again soon
# rather than wait for another change; but a subvolume that stays out of
# reach (here: made, through a descriptor opened before, in a directory a
# tmpfs hides) has its quick pass made again five times, not for ever.
# Counted in the keeper's own searches of that subvolume's link (strace),
# never in seconds, so that a loaded machine counts the same.
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

# The subvolumes mounted first, so that nothing mounted later hides the tmpfs.
mount_cmd once --exports "$EXPORTS" "$FEX"
check_mount_rc once 0
mkdir "$FEX/spool/hidden"
exec {hidden}<"$FEX/spool/hidden"
mount -t tmpfs -o size=1M hider "$FEX/spool/hidden"
watch_start watch --exports "$EXPORTS" "$FEX" || finish
ioctls_trace || finish
mark=$(wc -l <"$OUT/ioctls")
(cd "/proc/self/fd/$hidden" && btrfs -q subvolume create sub)
exec {hidden}<&-
id=$(btrfs subvolume list "$MNT" | awk '$NF ~ /spool\/hidden\/sub$/ { print $2 }')
[[ -n $id ]] || fail "btrfs subvolume list does not list the hidden subvolume"
# quick_passes: the searches of sub's link since the mark, one per quick pass.
quick_passes() {
	tail -n +"$((mark + 1))" "$OUT/ioctls" |
		grep -c "min_objectid=$id, max_objectid=$id, .*min_type=BTRFS_ROOT_BACKREF_KEY" || true
}
# settled: four looks or more since the last of them.
settled() {
	(($(quick_passes) > 0)) && awk -v id="$id" '
		$0 ~ "min_objectid=" id ", max_objectid=" id ", .*BTRFS_ROOT_BACKREF_KEY" { looks = 0; next }
		/BTRFS_IOC_FS_INFO/ { looks++ }
		END { exit !(looks >= 4) }' "$OUT/ioctls"
}
eventually settled || fail "the keeper still plans it, or never did: $(quick_passes) quick passes"
# The quick pass the new link makes, then five more.
check_eq "quick passes for the hidden subvolume" 6 "$(quick_passes)"
not mountpoint -q -- "$FEX/spool/hidden/sub" || fail "the hidden subvolume was mounted"
kill "$TRACER_PID" 2>/dev/null || true
wait "$TRACER_PID" 2>/dev/null || true
umount "$FEX/spool/hidden"
finish
