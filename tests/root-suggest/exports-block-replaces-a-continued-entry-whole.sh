#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An exports(5) entry continued over several lines with backslash-newline:
# --format exports names the whole line range ("replace lines 2-4"), so that
# doing what it says leaves no continuation line behind (exportfs would read
# one as a new path); the file then reads as the same entry with crossmnt on
# each client, and the lines around it unchanged.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
printf '%s\n' "# before" "$FEX \\" "  127.0.0.1(rw,no_subtree_check) \\" "  10.0.0.0/8(ro)" \
	"$MNT/top\\040dir 127.0.0.1(ro)" >"$EXPORTS"

suggest crossmnt --exports "$EXPORTS" --format exports "$FEX"
check_suggest_rc crossmnt 0
check_eq "the instruction names lines 2 to 4" "# replace lines 2-4 of $EXPORTS with" \
	"$(grep '^# replace' "$OUT/crossmnt")"
apply_replacements "$OUT/crossmnt" "$EXPORTS" >"$OUT/applied"
printf '%s\n' "# before" "$FEX 127.0.0.1(rw,no_subtree_check,crossmnt) 10.0.0.0/8(ro,crossmnt)" \
	"$MNT/top\\040dir 127.0.0.1(ro)" >"$OUT/expected"
check_files_eq "the exports file after the change" "$OUT/expected" "$OUT/applied"
check_eq "the library reads the changed file: the path on line 2, with crossmnt" "2 true" \
	"$("$BTRFS_INO" audit -q --json --exports "$OUT/applied" "$FEX" |
		jq -r '[.exports[] | "\(.export.line) \(.crossmnt)"] | unique | join(" ")')"
finish
