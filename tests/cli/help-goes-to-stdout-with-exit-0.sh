#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino --help`, `-h` and `help` print the same usage to stdout, exit 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run --help
check_eq "--help exit status" 0 "$RC"
check_eq "--help stderr" "" "$(cat "$ERR")"
grep -q '^Usage: btrfs-ino COMMAND' "$OUT" || fail "--help has no usage line: $(cat "$OUT")"
cp "$OUT" "$TMP/want"

for args in "-h" "help"; do
	run $args
	check_eq "$args exit status" 0 "$RC"
	check_eq "$args stderr" "" "$(cat "$ERR")"
	check_files_eq "$args stdout equals --help" "$TMP/want" "$OUT"
done
