#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The table's options shape the text report only: with --json (-J) (but -o
# and --list, which make it the table in JSON, see
# audit-json-with-columns-is-the-table-alone-as-findmnt-gives-it) or
# --format prometheus they are a usage error (exit 2, one message and the
# Try line, nothing on stdout), as are --json with --format and --raw or
# --pairs with --verbose or --suggest.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for args in "-J --raw" "-J -o NAME --pairs" "-J -n" "-J -v" \
	"--format prometheus --pairs" "--format prometheus -o LOOP" \
	"--json --format prometheus" "--raw -v" "--pairs --suggest" "--format nope" \
	"--color=sometimes"; do
	# shellcheck disable=SC2086
	run audit $args --exports /dev/null "$TMP"
	check_eq "audit $args: exit status" 2 "$RC"
	check_eq "audit $args: stdout" "" "$(cat "$OUT")"
	check_eq "audit $args: the Try line" "Try 'btrfs-ino audit --help' for more information." \
		"$(tail -n 1 "$ERR")"
	check_eq "audit $args: stderr lines" 2 "$(wc -l <"$ERR")"
done
