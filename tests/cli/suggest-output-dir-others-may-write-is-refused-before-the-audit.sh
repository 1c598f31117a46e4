#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --output-dir refuses, with exit status 2 and one line naming it,
# a directory others may write (mode 0777, or 1777: they could add units
# beside ours) or one below a directory of mode 0777 (they could swap it),
# before the audit: nothing is made, nothing printed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/audited"
mkdir -m 0777 "$TMP/open"
mkdir -m 1777 "$TMP/sticky"

# refused DIR WHAT MODE
refused() {
	run suggest -q --exports /dev/null --output-dir "$1" "$TMP/audited"
	check_eq "$1: exit status" 2 "$RC"
	check_eq "$1: standard output" "" "$(cat "$OUT")"
	case $(cat "$ERR") in
	"btrfs-ino: $2: refused: mode $3 lets others "*) ;;
	*) fail "$1: stderr is: $(cat "$ERR")" ;;
	esac
}
refused "$TMP/open" "$TMP/open" 0777
refused "$TMP/sticky" "$TMP/sticky" 1777
refused "$TMP/open/units" "$TMP/open" 0777
check_eq "made below the open directory" "" "$(ls -A "$TMP/open")"
