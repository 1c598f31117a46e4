#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --output-dir DIR writes each unit of --format mount-units into DIR
# (made if missing), named as systemd-escape --path --suffix=mount names its
# Where=, holding exactly the block's text for it; systemd-analyze verify
# accepts them.  The text output is unchanged by it.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v systemd-analyze >/dev/null || skip_or_fail "needs systemd-analyze (package systemd)"
setup_export

suggest units.txt --exports "$EXPORTS" --format mount-units "$FEX"
check_suggest_rc units.txt 0
mkdir -- "$OUT/expected"
awk -v dir="$OUT/expected" '
	/^# file: \/etc\/systemd\/system\// { f = dir "/" substr($3, length("/etc/systemd/system/") + 1); blank = 0; next }
	f && /^$/ { blank++; next }
	f { while (blank > 0) { print "" > f; blank-- } print > f }' "$OUT/units.txt"

suggest with-dir --exports "$EXPORTS" --format mount-units --output-dir "$OUT/units" "$FEX"
check_suggest_rc with-dir 0
check_files_eq "the text output is the same with --output-dir" "$OUT/units.txt" "$OUT/with-dir"
expected_plain_subvols | while IFS=$'\t' read -r _ path; do
	systemd-escape --path --suffix=mount -- "$path"
done | sort >"$OUT/names.expected"
(cd "$OUT/units" && ls -1) | sort >"$OUT/names"
check_files_eq "one file per subvolume, named by systemd-escape" "$OUT/names.expected" "$OUT/names"
for unit in "$OUT/units"/*.mount; do
	[[ -e $unit ]] || continue
	check_files_eq "$(basename -- "$unit") is the block's text" \
		"$OUT/expected/$(basename -- "$unit")" "$unit"
	check_eq "$(basename -- "$unit"): its name is its Where=" "$(basename -- "$unit")" \
		"$(systemd-escape --path --suffix=mount -- "$(sed -n 's/^Where=//p' "$unit")")"
done
(cd "$OUT/units" && systemd-analyze verify --man=no ./*.mount) >"$OUT/verify" 2>&1 ||
	fail "systemd-analyze verify: $(cat "$OUT/verify")"
finish
