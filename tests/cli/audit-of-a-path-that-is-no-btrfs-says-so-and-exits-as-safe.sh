#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A path on a filesystem that is not btrfs, with no btrfs below it that
# clients see, is audited (safe: exit status 0), and a note after the table
# says that it is not btrfs, naming its filesystem type as findmnt does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/d
mkdir "$dir"
touch "$dir/f"
fstype=$(findmnt -n -o FSTYPE -T "$dir")
[ "$fstype" != btrfs ] || skip_or_fail "$TMP is on btrfs"
run audit -q --exports /dev/null "$dir"
check_eq "exit status" 0 "$RC"
check_eq "the verdict" "$dir: safe" "$(head -n 1 "$OUT")"
check_eq "the note" \
	"($dir: not btrfs but $fstype: clients see no btrfs subvolume below it)" \
	"$(grep ': not btrfs' "$OUT")"
check_eq "stderr" "" "$(cat "$ERR")"
