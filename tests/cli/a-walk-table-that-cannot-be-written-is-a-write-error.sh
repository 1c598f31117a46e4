#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# walk's table forms write every 256 rows (3000 rows are more than stdio's
# 64 KiB buffer holds): when stdout is full, the one message is the write
# error (not "Cannot allocate memory"), and the exit status 2.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[[ -w /dev/full ]] || skip_or_fail "needs /dev/full"

dir=$TMP/many
mkdir "$dir"
(cd "$dir" && touch f{1..3000})
for form in --raw --pairs --list; do
	RC=0
	"$BTRFS_INO" walk "$form" "$dir" >/dev/full 2>"$TMP/stderr" || RC=$?
	check_eq "$form: exit status" 2 "$RC"
	check_eq "$form: stderr" "btrfs-ino: write error: No space left on device" \
		"$(cat "$TMP/stderr")"
done
