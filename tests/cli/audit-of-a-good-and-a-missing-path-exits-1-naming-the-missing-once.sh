#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One safe path and one missing path: the safe one is audited, the missing
# one is named once on stderr (as walk and the other commands word it), and
# the exit status is 1 (a per-entry error), not 0 as if all were well.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/good"
touch "$TMP/good/file"
missing=$TMP/missing
run audit -q --exports /dev/null "$TMP/good" "$missing"
[ "$RC" = 1 ] || fail "exit status $RC, not 1: $(cat "$ERR")"
[ "$(head -n 1 "$OUT")" = "$TMP/good: safe" ] ||
	fail "the good path is not audited safe: $(cat "$OUT")"
[ "$(cat "$ERR")" = "btrfs-ino: $missing: Could not stat: No such file or directory" ] ||
	fail "stderr does not name $missing once: $(cat "$ERR")"
