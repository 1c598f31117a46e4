#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `--print0` and `--json` together: exit 2, a hint on stderr, nothing on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for args in "--print0 --json" "--json -0"; do
	run walk $args "$TMP"
	check_eq "$args exit status" 2 "$RC"
	check_eq "$args stdout" "" "$(cat "$OUT")"
	grep -qF "Try 'btrfs-ino walk --help'" "$ERR" || fail "$args stderr: $(cat "$ERR")"
done
