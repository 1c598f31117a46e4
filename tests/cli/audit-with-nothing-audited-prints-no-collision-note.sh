#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# When no path could be audited there are no counts, so the text report does
# not end its tree with the note on how collisions are counted (exit 2).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run audit "$TMP/no-such-dir"
check_eq "exit status" 2 "$RC"
grep -q 'not audited' "$OUT" || fail "the report does not say not audited: $(cat "$OUT")"
grep -q 'collisions between' "$OUT" && fail "the note is printed: $(cat "$OUT")"
true
