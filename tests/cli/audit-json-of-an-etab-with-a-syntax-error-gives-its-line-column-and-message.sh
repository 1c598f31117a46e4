#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An etab that stops at a syntax error is audited as far as it reads (a
# finding, exit status 1); its JSON export_table says where, as stderr
# does: the line, column and message of the error.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/d
mkdir "$dir"
printf '%s\t*(rw,sync)\n%s\t*(rw\n' "$dir" "$dir" >"$TMP/etab"
printf '%s *(rw,sync)\n' "$dir" >"$TMP/exports"

run audit -q --json --etab "$TMP/etab" --exports "$TMP/exports" --fstab /dev/null
check_eq "exit status" 1 "$RC"
# stderr, as exportfs would say it: FILE:LINE:COLUMN: MESSAGE.
where=$(sed -n "s|^btrfs-ino: $TMP/etab:\([0-9]*\):\([0-9]*\): \(.*\)$|\1 \2 \3|p" "$ERR")
[ -n "$where" ] || fail "stderr names no line: $(cat "$ERR")"
check_eq "export_table" "error $where" \
	"$(jq -r '.export_table | "\(.etab_state) \(.etab_problem.line) \(.etab_problem.column) \(.etab_problem.message)"' "$OUT")"
