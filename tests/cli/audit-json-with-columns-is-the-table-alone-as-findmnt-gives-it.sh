#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# -J with -o COLUMNS is what findmnt -J -o gives: the table alone, in JSON,
# with only those columns (keys in lower case, counts as numbers), its rows
# nested as the tree nests them; with --list as well, one flat array.  The
# exit status is the audit's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/d
mkdir "$dir"
touch "$dir/a" "$dir/b"
printf '%s *(rw,no_subtree_check)\n' "$dir" >"$TMP/exports"
entries=$(find "$dir" | wc -l)

run audit -q -J -o NAME,TYPE,LOOP --exports "$TMP/exports" "$dir"
check_eq "-J -o: exit status" 0 "$RC"
check_eq "-J -o: the table's rows, those columns only" \
	"{\"audit\":[{\"name\":\"$dir\",\"type\":\"export\",\"loop\":0}]}" \
	"$(jq -c . "$OUT")"

run audit -q --json --list -o NAME,DETAILS --exports "$TMP/exports" "$dir"
check_eq "-J -l -o: exit status" 0 "$RC"
check_eq "-J -l -o: the row's details" \
	"exported to *, $entries entries, 1 fs on clients" \
	"$(jq -r '.audit[0].details' "$OUT")"
check_eq "-J -l -o: nothing but the table" "audit" "$(jq -r 'keys | join(",")' "$OUT")"
