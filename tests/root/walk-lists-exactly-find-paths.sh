#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The walk lists exactly the paths find lists, in text and in JSON output.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

find "$MNT" | sort >"$OUT/expected"
grep -q ' ' "$OUT/expected" || fail "fixture has no names with spaces"

walk json --json "$MNT"
check_walk_rc json 0
check_json json
jq -r 'select(.event == "entry") | .path' "$OUT/json" | sort >"$OUT/json.paths"
check_files_eq "JSON paths vs find" "$OUT/expected" "$OUT/json.paths"
check_eq "JSON records other than entries" "" \
	"$(jq -c 'select(.event != "entry")' "$OUT/json")"

# Text: "MAJOR:MINOR SUBVOLID INO PATH"; the path is everything after the
# third space.
walk text "$MNT"
check_walk_rc text 0
cut -d ' ' -f 4- "$OUT/text" | sort >"$OUT/text.paths"
check_files_eq "text paths vs find" "$OUT/expected" "$OUT/text.paths"
check_eq "text stderr" "" "$(cat "$OUT/text.err")"

finish
