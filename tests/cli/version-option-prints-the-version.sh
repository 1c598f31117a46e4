#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `-V` and `--version` print the project version to stdout, exit 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO_VERSION:?BTRFS_INO_VERSION must be the project version}"

want="btrfs-ino $BTRFS_INO_VERSION (libbtrfsino $BTRFS_INO_VERSION)"
for opt in -V --version; do
	run $opt
	check_eq "$opt exit status" 0 "$RC"
	check_eq "$opt stdout" "$want" "$(cat "$OUT")"
	check_eq "$opt stderr" "" "$(cat "$ERR")"
done
