#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# After btrfs-ino mount, a second run (and its --dry-run) prints nothing,
# exits 0 and leaves the mount table (findmnt) as the first run left it.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

mount_cmd first --exports "$EXPORTS"
check_mount_rc first 0
mount_table >"$OUT/mounts.first"
mount_cmd dry --dry-run --exports "$EXPORTS"
check_mount_rc dry 0
check_eq "second --dry-run output" "" "$(cat "$OUT/dry")"
mount_cmd second --exports "$EXPORTS"
check_mount_rc second 0
check_eq "second run output" "" "$(cat "$OUT/second")"
mount_table >"$OUT/mounts.second"
check_files_eq "mount table after the second run" "$OUT/mounts.first" "$OUT/mounts.second"
finish
