#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The main job with no path given: build the classic layout on a throw-away
# loop-mounted btrfs, show what btrfs-ino finds there, and remove it again.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
btrfs_ino=${1:-$here/build/cli/btrfs-ino}
work=$(mktemp -d /tmp/btrfs-ino-demo.XXXXXX)
trap '"$here/scripts/classic-layout.sh" destroy "$work" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

"$here/scripts/classic-layout.sh" create "$work" >/dev/null
mnt=$work/mnt
export=$mnt/fex

echo "== A btrfs like the classic report's: /data/fex with subvolume fex/spool and"
echo "== snapshots under fex/spool/.snapshot (here mounted at $mnt)"
btrfs subvolume list "$mnt" | sed 's/^/   /'
echo
"$btrfs_ino" walk "$export" >"$work/walk.txt"
"$btrfs_ino" walk --json "$export" >"$work/walk.json"
echo "== btrfs-ino walk $export (first lines: DEV SUBVOLID INO PATH)"
head -n 12 "$work/walk.txt" | sed 's/^/   /'
echo "   ..."
echo
entries=$(jq -s '[.[] | select(.event == "entry")] | length' "$work/walk.json")
true_ids=$(jq -s '[.[] | select(.event == "entry") | [.dev, .subvolid, .ino]] | unique | length' "$work/walk.json")
# What an NFS client sees: one device for the whole export, so only st_ino.
client_ids=$(jq -s '[.[] | select(.event == "entry") | .ino] | unique | length' "$work/walk.json")
echo "== $entries entries; $true_ids distinct inodes by (dev, subvolid, ino);"
echo "== $client_ids distinct keys as an NFS client sees them (one st_dev per export):"
echo "== $((true_ids - client_ids)) inodes would be merged with another by find, du, tar, rsync -H."
