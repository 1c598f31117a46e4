#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --json is one JSON document (jq parses it) with "version": 1 and
# one exports[] object for the path, "needed": true; its blocks object holds
# every --format block under the name with "-" made "_", each byte for byte
# what "suggest --format NAME" prints; --json with --format is a usage error.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

suggest json --exports "$EXPORTS" --json --server nfs1 "$FEX"
check_suggest_rc json 0
jq -e . "$OUT/json" >/dev/null || fail "jq cannot parse suggest --json"
check_eq "version" 1 "$(jq -r '.version' "$OUT/json")"
check_eq "exports" 1 "$(jq -r '.exports | length' "$OUT/json")"
check_eq "path" "$FEX" "$(jq -r '.exports[0].path' "$OUT/json")"
check_eq "error" null "$(jq -r '.exports[0].error' "$OUT/json")"
check_eq "needed" true "$(jq -r '.exports[0].needed' "$OUT/json")"
check_eq "block names" "$(printf '%s\n' "${BLOCKS[@]//-/_}" | sort)" \
	"$(jq -r '.exports[0].blocks | keys[]' "$OUT/json")"
for block in "${BLOCKS[@]}"; do
	format_output "$block" --server nfs1
	jq -j --arg k "${block//-/_}" '.exports[0].blocks[$k]' "$OUT/json" >"$OUT/$block.json"
	check_files_eq "blocks.${block//-/_}" "$OUT/format-$block" "$OUT/$block.json"
done

suggest both --exports "$EXPORTS" --json --format exports "$FEX"
check_suggest_rc both 2
grep -q "Try 'btrfs-ino suggest --help'" "$OUT/both.err" || fail "no usage hint: $(cat "$OUT/both.err")"
finish
