#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino exec` of a COMMAND that is nowhere: exit 127 as env(1), naming it; one that cannot run: 126.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

run exec -- no-such-command-bino
check_eq "exit status" 127 "$RC"
grep -qF "btrfs-ino: no-such-command-bino: exec: command not found" "$ERR" || fail "stderr: $(cat "$ERR")"

echo data >"$TMP/not-executable"
run exec -- "$TMP/not-executable"
check_eq "exit status for a file without x" 126 "$RC"
