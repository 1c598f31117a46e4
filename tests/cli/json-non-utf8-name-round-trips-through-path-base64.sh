#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A name that is not UTF-8: base64 -d of path_base64 gives the raw path bytes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/tree
mkdir "$dir"
raw="$dir/"$'l\xe9gacy\xff\xc3(name'
touch -- "$raw"

run walk --json "$dir"
check_eq "exit status" 0 "$RC"
n=$(jq -s '[.[] | select(has("path_base64"))] | length' "$OUT")
check_eq "records with path_base64" 1 "$n"
jq -r 'select(has("path_base64")) | .path_base64' "$OUT" | base64 -d >"$TMP/got"
printf '%s' "$raw" >"$TMP/want"
check_files_eq "decoded path_base64" "$TMP/want" "$TMP/got"
# and the path key is valid UTF-8 with U+FFFD for each bad byte
want_path="$dir/l"$'\xef\xbf\xbd'"gacy"$'\xef\xbf\xbd\xef\xbf\xbd'"(name"
got_path=$(jq -r 'select(has("path_base64")) | .path' "$OUT")
check_eq "sanitized path" "$want_path" "$got_path"
# a UTF-8 path carries no path_base64
check_eq "root record has no path_base64" "false" \
	"$(jq -s '.[] | select(.depth == 0) | has("path_base64")' "$OUT")"
