#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `suggest --json` with nothing exported prints one JSON document, as
# `audit --json` does (version 1, an empty "exports" array), and exits as
# the text form does: 2, "nothing to suggest" on stderr.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

exports=$TMP/exports
: >"$exports"
run suggest -q --exports "$exports"
check_eq "text exit status" 2 "$RC"
text_rc=$RC
run suggest -q --json --exports "$exports"
check_eq "JSON exit status, as text" "$text_rc" "$RC"
check_eq "version and exports" '{"version":1,"exports":[]}' \
	"$(jq -c '{version, exports}' "$OUT" 2>&1)"
check_eq "one document" 1 "$(jq -s length "$OUT" 2>&1)"
grep -qF "nothing to suggest" "$ERR" || fail "stderr: $(cat "$ERR")"
