#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `walk --json` writes one valid JSON object per line, one per entry.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/tree
mkdir -p "$dir/a/b"
touch "$dir/a/f" "$dir/"$'quote"and\\back' "$dir/"$'ctl\x01' "$dir/"$'raw\xff'
ln -s a "$dir/link"

run walk --json "$dir"
check_eq "exit status" 0 "$RC"
n_lines=$(wc -l <"$OUT")
n_entries=$(find "$dir" | wc -l)
check_eq "lines vs find's entries" "$n_entries" "$n_lines"
lineno=0
while IFS= read -r line; do
	lineno=$((lineno + 1))
	jq -e 'type == "object" and .event == "entry"' <<<"$line" >/dev/null ||
		fail "line $lineno is not a JSON entry object: $line"
done <"$OUT"
