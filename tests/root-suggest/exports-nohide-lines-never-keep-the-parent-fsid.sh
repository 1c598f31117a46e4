#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --format exports-nohide on an export with fsid=: the export's own line keeps
# it, and each subvolume's line has exactly one fsid=, the subvolume's UUID
# (btrfs subvolume show), never the parent's: two exports with one fsid
# make clients confuse the filesystems.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
printf '%s\n' "$FEX -fsid=1234 127.0.0.1(rw,no_subtree_check) 10.0.0.0/8(ro,fsid=4321)" >"$EXPORTS"

suggest nohide --exports "$EXPORTS" --format exports-nohide "$FEX"
check_suggest_rc nohide 0
config_lines "$OUT/nohide" >"$OUT/lines"
check_eq "the export's line keeps its fsid= values" "fsid=1234 fsid=4321" \
	"$(awk -v p="$FEX" '$1 == p' "$OUT/lines" | grep -o 'fsid=[^,)]*' | sort -u | paste -sd ' ')"
expected_subvols | while IFS=$'\t' read -r _ path; do
	uuid=$(btrfs subvolume show "$path" | awk '$1 == "UUID:" { print $2 }')
	got=$(awk -v p="$path" '$1 == p' "$OUT/lines" | grep -o 'fsid=[^,)]*' | paste -sd ' ')
	check_eq "$path: its UUID as fsid=, once per client" "fsid=$uuid fsid=$uuid" "$got"
done
check_eq "no fsid= is on two paths" "" \
	"$(awk '{ for (i = 2; i <= NF; i++) { n = split($i, o, /[(),]/)
		for (j = 1; j <= n; j++) if (o[j] ~ /^fsid=/) print o[j], $1 } }' "$OUT/lines" |
		sort -u | awk '{ print $1 }' | uniq -d)"
finish
