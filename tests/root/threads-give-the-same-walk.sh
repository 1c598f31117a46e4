#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Read-ahead threads change nothing but time: --threads 1, 2 and 8 give the
# same entries in the same order, on a cold cache as on a warm one.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

walk one --json --threads 1 "$MNT"
check_walk_rc one 0
for n in 2 8; do
	sync
	echo 3 >/proc/sys/vm/drop_caches
	walk "t$n" --json --threads "$n" "$MNT"
	check_walk_rc "t$n" 0
	check_files_eq "--threads $n (cold) equals --threads 1" "$OUT/one" "$OUT/t$n"
done
check_eq "entries walked" "$(find "$MNT" | wc -l)" \
	"$(jq -r 'select(.event == "entry") | .path' "$OUT/one" | wc -l)"

finish
