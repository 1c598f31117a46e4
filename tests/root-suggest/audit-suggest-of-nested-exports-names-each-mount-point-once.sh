#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --suggest over nested exports (the layout of
# nested-exports-get-one-block-per-filesystem-tree-...: $EXP, $EXP/inner
# for the same client, the subvolume $EXP/a for another, on one btrfs)
# prints the suggestion of the outermost path only, as suggest does: each
# subvolume's server fstab line once (btrfs subvolume list), and the inner
# paths say whose suggestion names their mounts ("suggestion_in" in JSON).
source "$(dirname -- "$0")/suggest-lib.sh"
setup_scratch
setup_nested_exports

run_cli audit text --suggest --exports "$EXPORTS"
check_rc "audit --suggest" "$RUN_RC" 1
config_lines "$OUT/text" | awk '$3 == "btrfs" && $4 ~ /subvolid=/ { print $2 }' | sort >"$OUT/targets"
check_files_eq "server fstab lines: each subvolume once" "$OUT/subvols" "$OUT/targets"

run_cli audit json --json --suggest --exports "$EXPORTS"
check_rc "audit --json --suggest" "$RUN_RC" 1
jq -r '.exports[] | [.path, (.suggestion_in // "-"), (.suggestion != null)] | @tsv' \
	"$OUT/json" | sort -u >"$OUT/json.paths"
printf '%s\t-\ttrue\n%s\t%s\tfalse\n%s\t%s\tfalse\n' "$EXP" "$EXP/a" "$EXP" "$EXP/inner" "$EXP" |
	sort >"$OUT/json.expected"
check_files_eq "JSON: whose suggestion names each path's mounts" "$OUT/json.expected" "$OUT/json.paths"
finish
