#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino exec -- COMMAND` runs COMMAND with libbtrfsino-exec.so mapped, and plain runs are without it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO_EXEC_PRELOAD:?BTRFS_INO_EXEC_PRELOAD must name the built preload library}"

run exec -- grep -c -F -- "$BTRFS_INO_EXEC_PRELOAD" /proc/self/maps
check_eq "exit status (grep found it)" 0 "$RC"
[[ $(cat "$OUT") -ge 1 ]] || fail "not mapped: $(cat "$OUT")"
if grep -q -F -- "$BTRFS_INO_EXEC_PRELOAD" /proc/self/maps; then
	fail "mapped without exec too"
fi
