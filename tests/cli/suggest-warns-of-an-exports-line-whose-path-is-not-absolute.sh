#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An exports line whose path is not absolute is one exportfs reads (it
# resolves the path from its own working directory) and the audit leaves
# out: suggest says so as an exports warning on stderr, with its file, line
# and column, and under "exports_warnings" in JSON, never silently.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

exports=$TMP/exports
printf 'srv/x h(rw,no_subtree_check)\n' >"$exports"
run suggest -q --exports "$exports"
check_eq "exit status (nothing audited)" 2 "$RC"
grep -qF "exports warning: $exports:1:1: path is not absolute" "$ERR" ||
	fail "no warning on stderr: $(cat "$ERR")"
run suggest -q --json --exports "$exports"
check_eq "JSON exit status" 2 "$RC"
check_eq "exports_warnings" "$exports 1 1" \
	"$(jq -r '.exports_warnings[] | select(.message | startswith("path is not absolute")) |
		"\(.file) \(.line) \(.column)"' "$OUT" 2>&1)"
