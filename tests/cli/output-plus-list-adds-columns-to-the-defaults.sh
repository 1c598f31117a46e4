#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# -o +LIST adds its columns after the default ones (findmnt, lsblk): walk's
# headings are DEV SUBVOLID INO PATH then the added ones, and audit's
# NAME LOOP HARDLINK PLAIN DETAILS then the added ones.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/d"
run walk -r -o +mode,NLINK "$TMP/d"
[ "$RC" = 0 ] || fail "walk: exit status $RC: $(cat "$ERR")"
[ "$(head -n 1 "$OUT")" = "DEV SUBVOLID INO PATH MODE NLINK" ] ||
	fail "walk headings: $(head -n 1 "$OUT")"
[ "$(sed -n 2p "$OUT" | cut -d' ' -f5,6)" = \
	"$(printf '%06o' "0x$(stat -c %f "$TMP/d")") $(stat -c %h "$TMP/d")" ] ||
	fail "walk: MODE NLINK of $TMP/d: $(sed -n 2p "$OUT")"
run audit -q --exports /dev/null -r -o +TYPE "$TMP/d"
[ "$RC" = 0 ] || fail "audit: exit status $RC: $(cat "$ERR")"
[ "$(head -n 1 "$OUT")" = "NAME LOOP HARDLINK PLAIN DETAILS TYPE" ] ||
	fail "audit headings: $(head -n 1 "$OUT")"
