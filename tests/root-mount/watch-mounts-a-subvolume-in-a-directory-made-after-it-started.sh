#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch watches the filesystem, not directories: a subvolume created
# in directories made after the watch began is mounted by the keeper's
# second look after it was made (strace counts them).
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
keeper_trace || finish
mkdir -p -- "$FEX/new/deeper"
btrfs -q subvolume create "$FEX/new/deeper/vol"
mark=$(trace_mark)
eventually mountpoint -q -- "$FEX/new/deeper/vol" ||
	fail "the subvolume in the new directories is not mounted after $WATCH_DEADLINE s"
mounted_within_looks "$mark" M vol
check_eq "the mount is of that subvolume" "/fex/new/deeper/vol" \
	"$(findmnt -n -o FSROOT --mountpoint "$FEX/new/deeper/vol")"
finish
