#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --format exports is the export's line with crossmnt added, every other
# option kept; --format exports-nohide keeps that line as it was and adds one
# line per subvolume below the export (btrfs subvolume list), each with the
# same client and options plus nohide and fsid= the subvolume's UUID
# (btrfs subvolume show).  Both parse with the library's exports parser
# (btrfs-ino audit --exports).
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

suggest crossmnt --exports "$EXPORTS" --format exports "$FEX"
check_suggest_rc crossmnt 0
config_lines "$OUT/crossmnt" >"$OUT/crossmnt.lines"
printf '%s\n' "$FEX 127.0.0.1(rw,async,no_subtree_check,no_root_squash,crossmnt)" \
	>"$OUT/crossmnt.expected"
check_files_eq "exports with crossmnt" "$OUT/crossmnt.expected" "$OUT/crossmnt.lines"
audit_rc=0
"$BTRFS_INO" audit -q --exports "$OUT/crossmnt" "$FEX" >/dev/null 2>"$OUT/parse.err" || audit_rc=$?
check_eq "audit reads the crossmnt block (not a usage error)" 1 "$audit_rc"
# A block exportfs stops reading would be exit 1 too: it must say nothing.
check_eq "audit reads the crossmnt block without an exports error" "" "$(cat "$OUT/parse.err")"

suggest nohide --exports "$EXPORTS" --format exports-nohide "$FEX"
check_suggest_rc nohide 0
{
	cat "$EXPORTS"
	expected_subvols | while IFS=$'\t' read -r _ path; do
		uuid=$(btrfs subvolume show "$path" | awk '$1 == "UUID:" { print $2 }')
		printf '%s 127.0.0.1(rw,async,no_subtree_check,no_root_squash,nohide,fsid=%s)\n' \
			"$path" "$uuid"
	done
} | sort >"$OUT/nohide.expected"
config_lines "$OUT/nohide" | sort >"$OUT/nohide.lines"
check_files_eq "per-subvolume exports" "$OUT/nohide.expected" "$OUT/nohide.lines"
check_eq "distinct fsid= values" 5 "$(grep -o 'fsid=[^,)]*' "$OUT/nohide.lines" | sort -u | wc -l)"
audit_rc=0
"$BTRFS_INO" audit -q --json --exports "$OUT/nohide" "$FEX" >"$OUT/nohide.json" 2>"$OUT/parse.err" || audit_rc=$?
check_eq "audit reads the nohide block (not a usage error)" 1 "$audit_rc"
check_eq "audit reads the nohide block without an exports error" 0 \
	"$(jq '.exports_errors | length' "$OUT/nohide.json")"
mapfile -t paths < <(expected_subvols | cut -f2)
check_eq "the parser finds an export for each of the 6 paths" 6 \
	"$("$BTRFS_INO" audit -q --json --exports "$OUT/nohide" "$FEX" "${paths[@]}" |
		jq '[.exports[] | select(.exported)] | length')"

# Escaping: paths with blanks are written as exportfs reads them.
spaced="$MNT/top dir"
printf '"%s" *(ro)\n' "$spaced" >"$OUT/spaced-exports"
btrfs -q subvolume create -- "$spaced/s 1" >/dev/null
btrfs -q subvolume create -- "$spaced/s 2" >/dev/null
suggest spaced --exports "$OUT/spaced-exports" --format exports-nohide "$spaced"
check_suggest_rc spaced 0
check_eq "octal-escaped paths" "$MNT/top\\040dir $MNT/top\\040dir/s\\0401 $MNT/top\\040dir/s\\0402" \
	"$(config_lines "$OUT/spaced" | awk '{ print $1 }' | paste -sd ' ')"
check_eq "the parser reads them back as the real paths" "true true" \
	"$("$BTRFS_INO" audit -q --json --exports "$OUT/spaced" "$spaced/s 1" "$spaced/s 2" |
		jq -r '[.exports[].exported] | map(tostring) | join(" ")')"
btrfs -q subvolume delete -- "$spaced/s 1" "$spaced/s 2" >/dev/null
finish
