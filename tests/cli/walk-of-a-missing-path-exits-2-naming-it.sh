#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Walking only a nonexistent path: exit 2, the path named on stderr, no output.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

missing=$TMP/no-such-dir
run walk "$missing"
check_eq "exit status" 2 "$RC"
check_eq "stdout" "" "$(cat "$OUT")"
grep -qF "btrfs-ino: $missing: " "$ERR" || fail "stderr does not name $missing: $(cat "$ERR")"
