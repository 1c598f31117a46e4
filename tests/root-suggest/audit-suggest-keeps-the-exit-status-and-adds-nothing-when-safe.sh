#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --suggest exits as audit does (1 on the classic layout, 0 for a safe
# plain directory), prints the audit report unchanged before the
# suggestion, and for a safe path prints exactly the audit report.  With
# --json, each exports[] object gains "suggestion": what suggest --json
# gives for the path, the rest of the document unchanged.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

audit_rc() {
	local name=$1 rc=0
	shift
	"$BTRFS_INO" audit -q "$@" >"$OUT/$name" 2>"$OUT/$name.err" || rc=$?
	echo "$rc"
}

check_eq "audit, classic" 1 "$(audit_rc plain-audit --exports "$EXPORTS" "$FEX")"
check_eq "audit --suggest, classic" 1 "$(audit_rc with-suggest --suggest --exports "$EXPORTS" "$FEX")"
# The report ends with the next command (its "next:" line and any
# continuation), which --suggest replaces; the suggestion follows it.
sed '/^next: /,$d' "$OUT/plain-audit" >"$OUT/report"
head -n "$(wc -l <"$OUT/report")" "$OUT/with-suggest" >"$OUT/report-before-suggestion"
check_files_eq "report before the suggestion" "$OUT/report" "$OUT/report-before-suggestion"

safe=$WORK/safe
mkdir -p -- "$safe/a"
echo one >"$safe/a/one"
check_eq "audit --suggest, safe" 0 "$(audit_rc safe-suggest --suggest --exports "$EXPORTS" "$safe")"
audit_rc safe-audit --exports "$EXPORTS" "$safe" >/dev/null
check_files_eq "safe path: audit --suggest is the audit" "$OUT/safe-audit" "$OUT/safe-suggest"

check_eq "audit --json --suggest, classic" 1 \
	"$(audit_rc json-suggest --json --suggest --exports "$EXPORTS" "$FEX")"
audit_rc json --json --exports "$EXPORTS" "$FEX" >/dev/null
suggest suggest-json --json --exports "$EXPORTS" "$FEX"
check_eq "the rest of the document" "$(jq -S . "$OUT/json")" \
	"$(jq -S 'del(.exports[].suggestion)' "$OUT/json-suggest")"
check_eq "suggestion object" "$(jq -S '.exports[0]' "$OUT/suggest-json")" \
	"$(jq -S '.exports[0].suggestion' "$OUT/json-suggest")"
finish
