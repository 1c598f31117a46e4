#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `suggest --json` holds every block, so `--format` with it is refused: exit
# 2, a hint on stderr, nothing on stdout, before anything is audited.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for args in "--json --format exports" "--format server-fstab --json"; do
	run suggest $args "$TMP"
	check_eq "$args exit status" 2 "$RC"
	check_eq "$args stdout" "" "$(cat "$OUT")"
	grep -qF "Try 'btrfs-ino suggest --help'" "$ERR" || fail "$args stderr: $(cat "$ERR")"
done
