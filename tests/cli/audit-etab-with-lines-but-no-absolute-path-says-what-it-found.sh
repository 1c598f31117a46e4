#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An etab with lines none of which exports an absolute path is not "empty":
# the note (on stderr) names the first line left out and why, the JSON's
# export_table says etab_state "no_path" with that line, column and message,
# and the exports file is audited instead.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

printf 'data/fex\t*(rw,sync)\n' >"$TMP/etab"
audit_with_etab "$TMP/etab"
check_eq "exit status" 0 "$RC"
grep -q "empty" "$ERR" && fail "the etab is called empty: $(cat "$ERR")"
check_eq "the note" \
	"btrfs-ino: $TMP/etab: no line exports an absolute path (line 1: path is not absolute: exportfs reads it, the audit leaves it out): auditing $TMP/exports instead" \
	"$(cat "$ERR")"
grep -q "^$DIR: safe" "$OUT" || fail "the exports file is not audited: $(cat "$OUT")"

audit_with_etab "$TMP/etab" --json
check_eq "JSON export_table" \
	'{"audited":"files","etab_state":"no_path","etab_problem":{"line":1,"column":1,"message":"path is not absolute: exportfs reads it, the audit leaves it out"}}' \
	"$(jq -c '.export_table | del(.etab)' "$OUT")"
