#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# In JSON, a path that is not UTF-8 comes with U+FFFD in "path" and its raw
# bytes in "path_base64"; UTF-8 paths have no path_base64.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

odd=$MNT/fex/spool/odd
mkdir -- "$odd"
raw=$odd/latin1-$'\xe9t\xe9'
touch -- "$raw" "$odd/utf8-été"

walk json --json "$odd"
check_walk_rc json 0
check_json json
check_eq "records with path_base64" 1 "$(jq -r 'select(.path_base64) | .path' "$OUT/json" | wc -l)"
check_eq "path with replacement characters" "$odd/latin1-"$'\xef\xbf\xbd'"t"$'\xef\xbf\xbd' \
	"$(jq -r 'select(.path_base64) | .path' "$OUT/json")"
printf '%s' "$raw" >"$OUT/raw.expected"
jq -r 'select(.path_base64) | .path_base64' "$OUT/json" | base64 -d >"$OUT/raw.actual"
cmp -s "$OUT/raw.expected" "$OUT/raw.actual" ||
	fail "path_base64: expected $(od -An -c "$OUT/raw.expected"), got $(od -An -c "$OUT/raw.actual")"
check_eq "the UTF-8 name as is" "$odd/utf8-été" \
	"$(jq -r 'select(.path | endswith("utf8-été")) | .path' "$OUT/json")"
check_eq "identity of the non-UTF-8 file" "$(btrfs inspect-internal rootid "$odd") $(stat -c %i "$raw")" \
	"$(jq -r 'select(.path_base64) | "\(.subvolid) \(.ino)"' "$OUT/json")"

finish
