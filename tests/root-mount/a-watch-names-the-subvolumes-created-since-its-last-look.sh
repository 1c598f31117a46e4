#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The library's new-subvolume detection (bino_fswatch, through the helper
# fswatch-looks): a look after two subvolumes were created answers "added"
# with exactly their IDs, as btrfs-progs names them, and the look after it
# nothing; a look after a deletion beside a creation is a change, not an
# addition; a look for creations only (bino_fswatch_check_added) names the
# new subvolume whatever was deleted beside it, and the full look after it
# is a change.
source "$(dirname -- "$0")/mount-lib.sh"
setup_export

coproc LOOKS { exec "$FSWATCH_LOOKS" "$FEX" 2>&1; }
exec {from}<&"${LOOKS[0]}" {to}>&"${LOOKS[1]}"
read -r line <&"$from"
check_eq "the helper watches $FEX" ready "$line"

# look KIND: one look of the helper ("check" or "added"), its answer.
look() {
	local answer
	echo "$1" >&"$to"
	read -r answer <&"$from"
	echo "$answer"
}

btrfs -q subvolume create "$FEX/a"
btrfs -q subvolume create "$FEX/b"
a=$(btrfs inspect-internal rootid "$FEX/a")
b=$(btrfs inspect-internal rootid "$FEX/b")
check_eq "a look after a and b were created" "added $a $b" "$(look check)"
check_eq "the look after it" unchanged "$(look check)"

btrfs -q subvolume delete "$FEX/a"
btrfs -q subvolume create "$FEX/c"
check_eq "a look after a was deleted and c created" changed "$(look check)"

btrfs -q subvolume delete "$FEX/b"
btrfs -q subvolume create "$FEX/d"
d=$(btrfs inspect-internal rootid "$FEX/d")
check_eq "a look for creations only, after b was deleted and d created" \
	"added $d" "$(look added)"
check_eq "the full look after it" changed "$(look check)"
exec {to}>&-
finish
