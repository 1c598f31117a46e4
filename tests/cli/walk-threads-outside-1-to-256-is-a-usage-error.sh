#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# walk --threads takes 1 to 256: anything else (0, 257, words, values that wrap
# in an int) exits 2 with one message naming the value, then the Try line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/tree"
for bad in 0 257 -1 abc 1x '' 4294967297 99999999999999999999; do
	for form in separate joined; do
		if [ "$form" = separate ]; then
			run walk --threads "$bad" "$TMP/tree"
		else
			run walk "--threads=$bad" "$TMP/tree"
		fi
		check_eq "exit status of walk --threads '$bad' ($form)" 2 "$RC"
		check_eq "stdout of walk --threads '$bad' ($form)" "" "$(cat "$OUT")"
		check_eq "stderr of walk --threads '$bad' ($form)" \
			"btrfs-ino: invalid --threads '$bad'
Try 'btrfs-ino walk --help' for more information." "$(cat "$ERR")"
	done
done

# The bounds themselves are accepted.
for good in 1 256; do
	run walk --threads "$good" "$TMP/tree"
	check_eq "exit status of walk --threads $good" 0 "$RC"
	check_eq "stderr of walk --threads $good" "" "$(cat "$ERR")"
done
