#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A path below an exported directory is what that export's clients see there:
# audit --json says "exported": true with the covering export ("covers": true,
# its path and line), counts what an export of the path with the same
# options would count, and suggest changes the covering export's line.  A
# server mount on the way that the clients do not cross (no crossmnt) hides
# the path from them: not exported.  A path nothing exports or covers gets
# the placeholder CLIENT in the exports blocks, never the world (*).
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
printf '%s\n' "# the whole filesystem" "$MNT 127.0.0.1(rw,no_subtree_check)" >"$EXPORTS"

"$BTRFS_INO" audit -q --json --exports "$EXPORTS" "$FEX" >"$OUT/audit.json" || true
check_eq "audited once, exported, under the export of $MNT on line 2" \
	"1 true true $MNT 2 2 127.0.0.1 false" \
	"$(jq -r '[(.exports | length), (.exports[0] | .exported, .export.covers, .export.path,
		.export.line, .export.last_line, .export.client, .crossmnt)] | map(tostring) | join(" ")' \
		"$OUT/audit.json")"
printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check)" >"$OUT/named"
"$BTRFS_INO" audit -q --json --exports "$OUT/named" "$FEX" >"$OUT/named.json" || true
check_eq "the same counts as an export of the path with those options" \
	"$(jq -c '.exports[0] | [.collisions, .client_filesystems, .entries]' "$OUT/named.json")" \
	"$(jq -c '.exports[0] | [.collisions, .client_filesystems, .entries]' "$OUT/audit.json")"
check_eq "and an export that names the path does not cover it" "true false" \
	"$(jq -r '.exports[0] | [.exported, .export.covers] | map(tostring) | join(" ")' "$OUT/named.json")"

suggest crossmnt --exports "$EXPORTS" --format exports "$FEX"
check_suggest_rc crossmnt 0
check_eq "suggest changes the covering export's line" \
	"# replace line 2 of $EXPORTS with|$MNT 127.0.0.1(rw,no_subtree_check,crossmnt)" \
	"$(grep -v '^# [^r]' "$OUT/crossmnt" | grep -v '^# $' | sed -n '/^# replace/,$p' | paste -sd '|')"
suggest json --exports "$EXPORTS" --json "$FEX"
check_eq "suggest --json says so" "true true $MNT" \
	"$(jq -r '.exports[0] | [.exported, .export.covers, .export.path] | map(tostring) | join(" ")' "$OUT/json")"

# A mount on the way: hidden without crossmnt, crossed with it.
mkdir -p -- "$MNT/top dir/m"
mount -t tmpfs tmpfs "$MNT/top dir/m"
echo x >"$MNT/top dir/m/file"
check_eq "behind a mount the clients do not cross: not exported" "false" \
	"$("$BTRFS_INO" audit -q --json --exports "$EXPORTS" "$MNT/top dir/m" | jq -r '.exports[0].exported')"
printf '%s\n' "$MNT 127.0.0.1(rw,no_subtree_check,crossmnt)" >"$OUT/crossing"
check_eq "behind a mount they cross (crossmnt): covered, with crossmnt" "true true true" \
	"$("$BTRFS_INO" audit -q --json --exports "$OUT/crossing" "$MNT/top dir/m" |
		jq -r '.exports[0] | [.exported, .export.covers, .crossmnt] | map(tostring) | join(" ")')"
umount -- "$MNT/top dir/m"

# Nothing exports or covers the path: a placeholder, never "*".
: >"$OUT/none"
for block in exports exports-nohide; do
	suggest "none-$block" --exports "$OUT/none" --format "$block" "$FEX"
	check_suggest_rc "none-$block" 0
	check_eq "$block: every line is for CLIENT" "CLIENT" \
		"$(config_lines "$OUT/none-$block" | grep -o ' [^ ]*(' | tr -d ' (' | sort -u)"
	grep -q '^# Replace CLIENT below with the hosts' "$OUT/none-$block" ||
		fail "$block: the comment does not say CLIENT must be replaced"
done
suggest none-json --exports "$OUT/none" --json "$FEX"
check_eq "suggest --json: not exported" "false null" \
	"$(jq -r '.exports[0] | [.exported, .export] | map(tostring) | join(" ")' "$OUT/none-json")"
finish
