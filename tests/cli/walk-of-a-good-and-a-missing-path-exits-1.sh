#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One good and one missing path: the good one is listed, exit 1.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/good"
touch "$TMP/good/file"
missing=$TMP/missing
run walk "$missing" "$TMP/good"
check_eq "exit status" 1 "$RC"
check_eq "paths listed" "$TMP/good
$TMP/good/file" "$(cut -d' ' -f4- "$OUT")"
grep -qF "btrfs-ino: $missing: " "$ERR" || fail "stderr does not name $missing: $(cat "$ERR")"
