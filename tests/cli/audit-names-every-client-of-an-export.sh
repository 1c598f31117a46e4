#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An export line with two clients of the same view, "10.0.0.0/24(rw,...)
# backup(ro,...)", is one audited path whose table row names both clients,
# whose -v details give both with their options, and whose JSON "clients"
# lists both; a client with crossmnt on another line is audited apart and
# named alone.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/d
mkdir "$dir"
printf '%s 10.0.0.0/24(rw,no_subtree_check) backup(ro,no_subtree_check)\n%s other(rw,crossmnt)\n' \
	"$dir" "$dir" >"$TMP/exports"
run audit -q --exports "$TMP/exports" "$dir"
[ "$RC" = 0 ] || fail "exit status $RC: $(cat "$ERR")"
[ "$(grep -o 'exported to .*, [0-9]* entries' "$OUT" | sed 's/, [0-9]* entries$//')" = "exported to 10.0.0.0/24, backup
exported to other" ] || fail "table: $(cat "$OUT")"
run audit -q -v --exports "$TMP/exports" "$dir"
[ "$(grep '^  exported to' "$OUT")" = "  exported to 10.0.0.0/24(rw,no_subtree_check) backup(ro,no_subtree_check) in $TMP/exports:1
  exported to other(rw,crossmnt) in $TMP/exports:2" ] || fail "-v: $(cat "$OUT")"
run audit -q --json --exports "$TMP/exports" "$dir"
[ "$(jq -c '[.exports[] | [.clients[] | "\(.client)(\(.options))"]]' "$OUT")" = \
	'[["10.0.0.0/24(rw,no_subtree_check)","backup(ro,no_subtree_check)"],["other(rw,crossmnt)"]]' ] ||
	fail "json: $(jq -c '[.exports[].clients]' "$OUT")"
