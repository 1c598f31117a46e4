#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --suggest appends, after the audit report of an unsafe export, the
# blocks suggest prints: each block of its full report is byte for byte what
# "suggest --format BLOCK" prints after its "# PATH" line (the snapshot hook
# has none: it starts with "#!"), and the appended text is the whole of
# what suggest prints for the path.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

"$BTRFS_INO" audit -q --suggest --exports "$EXPORTS" "$FEX" >"$OUT/audit" 2>"$OUT/audit.err" || true
suggest full --exports "$EXPORTS" "$FEX"
check_suggest_rc full 0
for block in "${BLOCKS[@]}"; do
	format_output "$block"
	if [[ $block == snapshot-hook ]]; then
		cp -- "$OUT/format-$block" "$OUT/$block.expected"
	else
		check_eq "$block: first line" "# $FEX" "$(head -n 1 "$OUT/format-$block")"
		tail -n +2 -- "$OUT/format-$block" >"$OUT/$block.expected"
	fi
	[[ -s $OUT/$block.expected ]] || fail "$block: suggest printed no block"
	block_of_report "$OUT/audit" "$block" >"$OUT/$block.actual"
	check_files_eq "$block in audit --suggest" "$OUT/$block.expected" "$OUT/$block.actual"
done
# The appended text starts with suggest's first line and is all of it.
first=$(head -n 1 "$OUT/full")
check_eq "suggest's first line in the audit" 1 "$(grep -cxF -- "$first" "$OUT/audit")"
awk -v first="$first" 'on || $0 == first { on = 1; print }' "$OUT/audit" |
	sed '${/^$/d}' >"$OUT/appended"
check_files_eq "what audit --suggest appends" "$OUT/full" "$OUT/appended"
finish
