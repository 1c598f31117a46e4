#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A bind mount that makes a directory cycle (fex mounted again inside its own
# subtree) is reported once as a loop whose ancestor is fex as walked, is
# not entered, makes the exit status 1, and the rest is still walked.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

loop=$MNT/fex/spool/dir/loop
find "$MNT" | grep -v -x -F -- "$loop" | sort >"$OUT/expected"
mount --bind "$MNT/fex" "$loop"
check_eq "the bind mount has fex's identity" "$(stat -c '%d %i' "$MNT/fex")" "$(stat -c '%d %i' "$loop")"

walk json --json "$MNT"
check_walk_rc json 1
check_json json
check_eq "loop records" \
	"$(jq -cn --arg p "$loop" --arg a "$MNT/fex" --arg dev "$DEV" --argjson id "$ID_FEX" \
		'{path: $p, ancestor: $a, dev: $dev, subvolid: $id, ino: 256}')" \
	"$(jq -c 'select(.event == "loop") | {path, ancestor, dev, subvolid, ino}' "$OUT/json")"
jq -r 'select(.event == "entry") | .path' "$OUT/json" | sort >"$OUT/paths"
check_files_eq "entries: everything but the loop, nothing below it" "$OUT/expected" "$OUT/paths"
check_eq "error records" "" "$(jq -c 'select(.event == "error")' "$OUT/json")"

# Text output: the loop goes to stderr as "btrfs-ino: PATH: ...", not stdout.
walk text "$MNT"
check_walk_rc text 1
check_eq "stdout lines naming the loop" "" "$(grep -F -- "$loop" "$OUT/text" || true)"
check_eq "stderr about the loop" 1 "$(grep -c -F -- "btrfs-ino: $loop: " "$OUT/text.err" || true)"
check_eq "text stdout lines" "$(wc -l <"$OUT/expected")" "$(wc -l <"$OUT/text")"

finish
