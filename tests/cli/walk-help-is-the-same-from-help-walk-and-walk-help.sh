#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino help walk` and `btrfs-ino walk --help` print the same, exit 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run help walk
check_eq "help walk exit status" 0 "$RC"
check_eq "help walk stderr" "" "$(cat "$ERR")"
grep -q '^Usage: btrfs-ino walk ' "$OUT" || fail "help walk: no usage line: $(cat "$OUT")"
cp "$OUT" "$TMP/want"

for args in "walk --help" "walk -h"; do
	run $args
	check_eq "$args exit status" 0 "$RC"
	check_eq "$args stderr" "" "$(cat "$ERR")"
	check_files_eq "$args stdout equals help walk" "$TMP/want" "$OUT"
done
