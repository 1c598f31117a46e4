#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --exports with a line exportfs refuses (a FreeBSD option): the error
# is reported first on stderr (text: stdout is for pasting) or under
# "exports_errors" (JSON), exit 1, and the suggestion works on the lines
# before it, as exportfs exports them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

good=$TMP/good
bad=$TMP/bad
mkdir "$good" "$bad"
exports=$TMP/exports
printf '%s h(rw)\n%s -mapall=root h(rw)\n' "$good" "$bad" >"$exports"
column=$((${#bad} + 3))

run suggest -q --exports "$exports" "$good" "$bad"
check_eq "exit status (a finding)" 1 "$RC"
check_eq "stderr's first lines" "exports error: $exports:2:$column: unknown keyword \"mapall=root\"
  exportfs stops reading the file here: only the entries before it are exported (and audited)" \
	"$(grep -A1 '^exports error:' "$ERR")"
grep -q 'mapall\|exports error' "$OUT" && fail "the error or the refused option is in stdout: $(cat "$OUT")"

run suggest -q --json --exports "$exports" "$good" "$bad"
check_eq "JSON exit status" 1 "$RC"
check_eq "exports_errors" \
	"$(jq -cn --arg f "$exports" --argjson c "$column" \
		'[{file: $f, line: 2, column: $c, message: "unknown keyword \"mapall=root\""}]')" \
	"$(jq -c .exports_errors "$OUT")"
grep -q 'mapall' <(jq -c .exports "$OUT") && fail "JSON pastes mapall: $(cat "$OUT")"
true
