#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --dry-run prints one "mount UUID=... subvolid=N on PATH" line per
# subvolume btrfs subvolume list shows below the export (blkid's UUID), and
# the mount table (findmnt) is the same afterwards; it exits 0.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

mount_cmd dry --dry-run --exports "$EXPORTS"
check_mount_rc dry 0
expected_mount_lines | sort >"$OUT/expected"
action_lines "$OUT/dry" | sort >"$OUT/actions"
check_files_eq "planned mounts" "$OUT/expected" "$OUT/actions"
mount_table >"$OUT/mounts.after"
check_files_eq "mount table unchanged" "$OUT/mounts.before" "$OUT/mounts.after"
finish
