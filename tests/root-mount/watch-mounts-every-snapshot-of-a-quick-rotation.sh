#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch while snapshots are taken back to back, each while the last
# one's commit may still be written: every one is mounted (waited for up to
# WATCH_DEADLINE seconds after the last was taken).
# Btrfs links a snapshot in the root tree while it commits, and its name
# appears in the directory only when the call that made it returns; a look
# in between sees the new link but no path to mount on, and the keeper must
# look again rather than wait for the next change.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

ROUNDS=${ROUNDS:-10}
watch_start watch --exports "$EXPORTS" "$FEX" || finish
for ((i = 1; i <= ROUNDS; i++)); do
	# Files made since the last commit make this one take a while, as on
	# a busy server: the window in which the snapshot is linked in the
	# tree but has no name yet.
	mkdir "$FEX/spool/files-$i"
	(cd "$FEX/spool/files-$i" && seq 1 1000 | xargs touch)
	btrfs -q subvolume snapshot "$FEX/spool" "$FEX/spool/.snapshot/q$i"
	sleep 0.$((RANDOM % 10))
done
# all_mounted: every snapshot is mounted; those that are not in MISSED.
all_mounted() {
	MISSED=()
	for ((i = 1; i <= ROUNDS; i++)); do
		mountpoint -q -- "$FEX/spool/.snapshot/q$i" || MISSED+=("q$i")
	done
	((${#MISSED[@]} == 0))
}
eventually all_mounted || true
all_mounted || true
check_eq "snapshots not mounted $WATCH_DEADLINE s after the last was taken" "" "${MISSED[*]}"
finish
