#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A PATH that does not exist: walk and audit say it in one wording, once,
# on stderr ("btrfs-ino: PATH: Could not stat: No such file or directory");
# in JSON the step that failed is the token "stat", not a phrase.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
gone=$TMP/gone
want="btrfs-ino: $gone: Could not stat: No such file or directory"

run walk "$gone"
check_eq "walk: exit status" 2 "$RC"
check_eq "walk: stderr" "$want" "$(cat "$ERR")"
run audit --exports /dev/null "$gone"
check_eq "audit: exit status" 2 "$RC"
check_eq "audit: stderr" "$want" "$(cat "$ERR")"
grep -qF 'No such file' "$OUT" && fail "audit repeats the error on stdout: $(cat "$OUT")"

run walk --json "$gone"
check_eq "walk --json: step" "stat" "$(jq -r 'select(.event == "error") | .step' "$OUT")"
run audit --json --exports /dev/null "$gone"
check_eq "audit --json: step" "stat" "$(jq -r '.exports[0].error.step' "$OUT")"
check_eq "audit --json: stderr" "$want" "$(cat "$ERR")"
