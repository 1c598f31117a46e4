#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# -0 prints exactly what find -print0 prints (order aside), byte for byte,
# also for names with spaces, a newline, a tab and bytes that are not UTF-8.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

odd=$MNT/fex/spool/odd
mkdir -- "$odd"
touch -- "$odd/new"$'\n'"line" "$odd/tab"$'\t'"bed" "$odd/latin1-"$'\xe9\xe0' \
	"$odd/ends with space " "$odd/-dash" "$odd/back\\slash" "$odd/"$'\xff'
mkdir -- "$odd/dir"$'\n'"with newline"
touch -- "$odd/dir"$'\n'"with newline/inside"

find "$MNT" -print0 | sort -z >"$OUT/expected"
walk z -0 "$MNT"
check_walk_rc z 0
sort -z "$OUT/z" >"$OUT/actual"
if ! cmp -s "$OUT/expected" "$OUT/actual"; then
	fail "-0 output differs from find -print0 (- expected, + actual):"
	diff -u <(tr '\0\n' '\n?' <"$OUT/expected") <(tr '\0\n' '\n?' <"$OUT/actual") |
		sed -n '3,30p' | cat -v >&2
fi
check_eq "stderr" "" "$(cat "$OUT/z.err")"

# --print0 is the same option.
walk print0 --print0 "$MNT"
sort -z "$OUT/print0" >"$OUT/print0.sorted"
cmp -s "$OUT/expected" "$OUT/print0.sorted" || fail "--print0 differs from -0"

finish
