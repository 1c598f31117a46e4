#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch watches the filesystem, not directories: a subvolume created
# in directories made after the watch began is mounted within 2 s.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
mkdir -p -- "$FEX/new/deeper"
btrfs -q subvolume create "$FEX/new/deeper/vol"
within 2 mountpoint -q -- "$FEX/new/deeper/vol" ||
	fail "the subvolume in the new directories is not mounted after 2 s"
check_eq "the mount is of that subvolume" "/fex/new/deeper/vol" \
	"$(findmnt -n -o FSROOT --mountpoint "$FEX/new/deeper/vol")"
finish
