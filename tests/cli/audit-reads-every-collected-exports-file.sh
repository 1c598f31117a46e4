#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every exports file collected from public projects (tests/data/exports/
# collected) audits with no sanitizer report and a report: exit 0 or 1 (the
# audited directory exists), 1 whenever "exports_errors" is not empty.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/exported
mkdir "$dir"
n=0
for f in "$(dirname "$0")"/../data/exports/collected/*.exports; do
	run audit -q --json --exports "$f" "$dir"
	if grep -qE 'Sanitizer|runtime error' "$ERR"; then
		fail "$f: $(cat "$ERR")"
	fi
	case $RC in 0 | 1) ;; *) fail "$f: exit status $RC: $(cat "$ERR")" ;; esac
	errors=$(jq -e '.exports_errors | length' "$OUT") || fail "$f: no report"
	if [ "$errors" -gt 0 ] && [ "$RC" -ne 1 ]; then
		fail "$f: an exports error but exit status $RC"
	fi
	n=$((n + 1))
done
[ "$n" -ge 16 ] || fail "only $n collected files"
