#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# walk -l on an 80-column terminal (a pty from script(1)): no row is padded
# past 80 columns, with PATH last (the default) or before another column; a
# PATH longer than the terminal is the row's end, or alone on its line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip_or_fail "needs script(1) (bsdutils)"

long=$TMP/$(printf 'a%.0s' {1..60})/$(printf 'b%.0s' {1..60})
mkdir -p "$long"
touch "$TMP/short"
for columns in "" "-o PATH,INO"; do
	# shellcheck disable=SC2086 # $columns is two words or none
	LC_ALL=C COLUMNS=80 script -qec "stty cols 80 rows 50; '$BTRFS_INO' walk -l $columns '$TMP'" \
		/dev/null | tr -d '\r' >"$TMP/screen"
	grep -qF "$TMP/short" "$TMP/screen" || fail "walk -l $columns: $(cat "$TMP/screen")"
	# Past 80 columns only a path's own length: nothing after it.
	wide=$(awk -v tmp="$TMP" 'length($0) > 80 {
		i = index($0, tmp); if (i == 0 || substr($0, i) ~ / /) print }' "$TMP/screen")
	[ -z "$wide" ] || fail "walk -l $columns: rows past 80 columns: $wide"
	grep -q ' $' "$TMP/screen" && fail "walk -l $columns: a row ends in padding"
done
true
