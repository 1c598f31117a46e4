#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino walk` with no PATH: exit 2, a hint on stderr, nothing on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run walk
check_eq "exit status" 2 "$RC"
check_eq "stdout" "" "$(cat "$OUT")"
grep -qF "Try 'btrfs-ino walk --help'" "$ERR" || fail "stderr: $(cat "$ERR")"
