#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --mountinfo with a file that is not mountinfo is a usage error (exit
# 2, nothing on stdout) whose message names the bad line and the column of
# the wrong field: a shell prompt pasted above a good table is line 1,
# column 1 (not the first good line); systemd's garbled fixture fails at its
# line 2, "44 44", where the device is missing (column 6).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DATA=$(cd -- "$(dirname -- "$0")/../data/mountinfo" && pwd)

mi=$TMP/pasted.mountinfo
{
	echo 'root@server:~# cat /proc/self/mountinfo'
	cat -- "$DATA/util-linux-mountinfo_btrfs.mountinfo"
} >"$mi"
for json in "" --json; do
	run suggest $json --mountinfo "$mi" "$TMP"
	check_eq "pasted prompt $json: exit status" 2 "$RC"
	check_eq "pasted prompt $json: stdout" "" "$(cat "$OUT")"
	check_eq "pasted prompt $json: stderr" \
		"btrfs-ino: $mi:1:1: not a mountinfo line: expected a mount ID (a number above 0)" \
		"$(cat "$ERR")"
done

run suggest --mountinfo "$DATA/systemd-garbled.mountinfo" "$TMP"
check_eq "garbled: exit status" 2 "$RC"
check_eq "garbled: stdout" "" "$(cat "$OUT")"
check_eq "garbled: stderr" \
	"btrfs-ino: $DATA/systemd-garbled.mountinfo:2:6: expected the device as MAJOR:MINOR" \
	"$(cat "$ERR")"
