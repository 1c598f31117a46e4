#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An exports file exportfs stops reading at line 2 (unknown keyword), with a
# client without options on line 1: the audit goes on with line 1, names the
# error and the warning in text and JSON (file, line, column), exits 1, and
# its tree tells the two clients of the path apart.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/spaced
mkdir "$dir"
exports=$TMP/exports
printf '%s out *(rw,crossmnt)\n%s h(rw,no_subtree,check)\n' "$dir" "$dir" >"$exports"

run audit -q --json --exports "$exports" "$dir"
check_eq "exit status (a finding)" 1 "$RC"
check_eq "exports_errors" \
	"$(jq -cn --arg f "$exports" --argjson c $((${#dir} + 7)) \
		'[{file: $f, line: 2, column: $c, message: "unknown keyword \"no_subtree\""}]')" \
	"$(jq -c .exports_errors "$OUT")"
check_eq "warning names the client" "1 $((${#dir} + 2)) out" \
	"$(jq -r '.exports_warnings[0] | "\(.line) \(.column) \(.message | capture("client \"(?<c>[^\"]*)\"").c)"' "$OUT")"
# Only line 1 is exported: "out" and "*", nothing with the bad option.
check_eq "clients audited" "out *" "$(jq -r '[.exports[].export.client] | join(" ")' "$OUT")"

run audit -q --exports "$exports" "$dir"
check_eq "text exit status" 1 "$RC"
grep -qF "exports error: $exports:2:$((${#dir} + 7)): unknown keyword \"no_subtree\"" "$OUT" ||
	fail "text report does not name the error: $(cat "$OUT")"
grep -qF "exports warning: $exports:1:$((${#dir} + 2)): no options for client \"out\"" "$OUT" ||
	fail "text report does not name the warning: $(cat "$OUT")"
check_eq "tree rows, one per client" "exported to out
exported to *" "$(grep -o 'exported to [^,]*' "$OUT")"
