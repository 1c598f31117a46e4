#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The FILE:LINE:COLUMN of a table that cannot be parsed names the file as
# the text output names paths: a newline in the name is written \n, so the
# message stays one line on stderr.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mi=$TMP/$'pasted\nprompt.mountinfo'
echo 'root@server:~# cat /proc/self/mountinfo' >"$mi"
run audit --mountinfo "$mi" "$TMP"
check_eq "exit status" 2 "$RC"
check_eq "stderr" \
	"btrfs-ino: $TMP/pasted\\nprompt.mountinfo:1:1: not a mountinfo line: expected a mount ID (a number above 0)" \
	"$(cat "$ERR")"
