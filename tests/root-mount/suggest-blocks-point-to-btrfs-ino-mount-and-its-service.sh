#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest's server-fstab and mount-units blocks (and the full report's
# note on later snapshots) name "btrfs-ino mount" and the unit that keeps
# it running, and that unit is one the source tree ships.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

[[ -f $SRCDIR/cli/systemd/btrfs-ino-mount.service.in ]] || fail "no btrfs-ino-mount.service in cli/systemd"
for format in server-fstab mount-units; do
	format_output "$format"
	grep -q '^#.*btrfs-ino mount' "$OUT/format-$format" || fail "$format does not name btrfs-ino mount"
	grep -q '^#.*btrfs-ino-mount\.service' "$OUT/format-$format" || fail "$format does not name the service"
done
suggest full --exports "$EXPORTS" "$FEX"
sed -n '/^## Snapshots created later/,/^## /p' "$OUT/full" >"$OUT/later"
grep -q 'btrfs-ino mount' "$OUT/later" || fail "the note on later snapshots does not name btrfs-ino mount"
finish
