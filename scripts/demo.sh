#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job with no path given: build the classic layout on a throw-away
# loop-mounted btrfs, audit its export (the verdict and the tree), then ask
# suggest what to change, and remove it all again.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
btrfs_ino=${1:-$here/build/cli/btrfs-ino}
work=$(mktemp -d /tmp/btrfs-ino-demo.XXXXXX)
trap '"$here/scripts/classic-layout.sh" destroy "$work" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

"$here/scripts/classic-layout.sh" create "$work" >/dev/null
mnt=$work/mnt
export=$mnt/fex
# The server's exports(5), as the classic report had it.
printf '%s *(rw,no_subtree_check)\n' "$export" >"$work/exports"

echo "== A btrfs like the classic report's: /data/fex with subvolume fex/spool and"
echo "== snapshots under fex/spool/.snapshot (here mounted at $mnt), exported with"
echo "==   $(cat "$work/exports")"
btrfs subvolume list "$mnt" | sed 's/^/   /; s/^ *$//'
echo
echo "== btrfs-ino audit --exports exports $export"
echo "== (the verdict first, then where the collisions are; exit status 1: unsafe)"
"$btrfs_ino" audit -q --exports "$work/exports" "$export" | sed 's/^/   /; s/^ *$//' || true
echo
echo "== What must I add to /etc/exports?"
echo "== btrfs-ino suggest --exports exports --format exports $export"
"$btrfs_ino" suggest -q --exports "$work/exports" --format exports "$export" |
	sed 's/^/   /; s/^ *$//' || true
echo
echo "== ... and the server must mount every subvolume on its own path:"
echo "== btrfs-ino suggest --exports exports --format server-fstab $export"
"$btrfs_ino" suggest -q --exports "$work/exports" --format server-fstab "$export" |
	sed 's/^/   /; s/^ *$//' || true
echo
echo "== The whole answer, every block explained (client mounts, snapshots to come):"
echo "==   btrfs-ino suggest $export"
