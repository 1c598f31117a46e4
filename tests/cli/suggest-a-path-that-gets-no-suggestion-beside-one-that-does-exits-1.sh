#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest PATH PATH: one path that cannot be audited (missing) beside one
# that can is an error on one PATH, said on stderr while the run goes on:
# exit 1 (the CLI's error rule), not 0 as if all were well; the other path
# still gets its note on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

exports=$TMP/exports
good=$TMP/good
mkdir "$good"
printf '%s h(ro,no_subtree_check)\n' "$good" >"$exports"
run suggest -q --exports "$exports" "$good" "$TMP/missing"
check_eq "exit status" 1 "$RC"
grep -qF "$good: safe for NFS clients" "$OUT" || fail "stdout: $(cat "$OUT")"
grep -qF "$TMP/missing" "$ERR" || fail "stderr does not name the missing path: $(cat "$ERR")"
run suggest -q --json --exports "$exports" "$good" "$TMP/missing"
check_eq "JSON exit status" 1 "$RC"
