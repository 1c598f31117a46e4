#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --help and walk --help list every column -o accepts (each name
# accepted by -o) and point to btrfs-ino(1), which is installed, not to the
# README, which is not.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for command in audit walk; do
	run "$command" --help
	check_eq "$command --help: exit status" 0 "$RC"
	grep -q 'btrfs-ino(1)' "$OUT" || fail "$command --help does not name btrfs-ino(1)"
	grep -q 'README' "$OUT" && fail "$command --help points to the README"
	columns=$(awk '/^Columns/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$OUT" | paste -sd,)
	[ -n "$columns" ] || fail "$command --help lists no column"
	if [ "$command" = audit ]; then
		run audit -q --raw -o "$columns" --exports /dev/null "$TMP"
	else
		run walk --raw -o "$columns" "$TMP"
	fi
	case $RC in 0 | 1) ;; *) fail "$command -o $columns: exit $RC: $(cat "$ERR")" ;; esac
	check_eq "$command --raw -o: headings" "$(tr , ' ' <<<"$columns")" "$(head -n 1 "$OUT")"
done
run audit -o NOPE "$TMP"
check_eq "an unknown column: exit status" 2 "$RC"
