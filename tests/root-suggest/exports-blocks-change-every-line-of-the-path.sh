#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A path exported on several lines (one per client or security flavour):
# --format exports rewrites each of them (one "replace line N" each) and
# leaves other paths' lines alone; --format exports-nohide repeats each and
# gives every subvolume below the path (btrfs subvolume list) one line per
# line of the path, with that line's clients and options plus nohide and
# fsid= the subvolume's UUID (btrfs subvolume show).
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check)" "$MNT 10.0.0.0/8(ro)" \
	"$FEX -sec=krb5 host2(rw) host3(ro)" >"$EXPORTS"

suggest crossmnt --exports "$EXPORTS" --format exports "$FEX"
check_suggest_rc crossmnt 0
check_eq "one instruction per line of the path" \
	"# replace line 1 of $EXPORTS with|# replace line 3 of $EXPORTS with" \
	"$(grep '^# replace' "$OUT/crossmnt" | paste -sd '|')"
apply_replacements "$OUT/crossmnt" "$EXPORTS" >"$OUT/applied"
printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check,crossmnt)" "$MNT 10.0.0.0/8(ro)" \
	"$FEX host2(sec=krb5,rw,crossmnt) host3(sec=krb5,ro,crossmnt)" >"$OUT/expected"
check_files_eq "the exports file after the change" "$OUT/expected" "$OUT/applied"

suggest nohide --exports "$EXPORTS" --format exports-nohide "$FEX"
check_suggest_rc nohide 0
{
	printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check)" "$FEX host2(sec=krb5,rw) host3(sec=krb5,ro)"
	expected_subvols | while IFS=$'\t' read -r _ path; do
		uuid=$(btrfs subvolume show "$path" | awk '$1 == "UUID:" { print $2 }')
		printf '%s 127.0.0.1(rw,no_subtree_check,nohide,fsid=%s)\n' "$path" "$uuid"
		printf '%s host2(sec=krb5,rw,nohide,fsid=%s) host3(sec=krb5,ro,nohide,fsid=%s)\n' \
			"$path" "$uuid" "$uuid"
	done
} | sort >"$OUT/nohide.expected"
config_lines "$OUT/nohide" | sort >"$OUT/nohide.lines"
check_files_eq "every line of the path, repeated per subvolume" \
	"$OUT/nohide.expected" "$OUT/nohide.lines"
finish
