#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# -o with a column that does not exist names that column (not the whole
# list), in audit and in walk, and exits 2 with the "Try" line.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for command in audit:NAME walk:PATH; do
	column=${command#*:} command=${command%:*}
	run "$command" -o "$column,BOGUS,$column" "$TMP"
	[ "$RC" = 2 ] || fail "$command: exit status $RC, not 2"
	[ "$(cat "$ERR")" = "btrfs-ino: unknown column 'BOGUS'
Try 'btrfs-ino $command --help' for more information." ] ||
		fail "$command: stderr: $(cat "$ERR")"
done
