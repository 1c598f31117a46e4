#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every entry's dev is the btrfs mount's device from mountinfo (not the
# per-subvolume anonymous st_dev), its ino is stat's and its type is find's.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

check_eq "mountinfo device of the fixture" "$DEV" \
	"$(findmnt -n -r -o MAJ:MIN --mountpoint "$MNT")"
# The point of the test: stat does not show that device for subvolumes.
[[ $(stat -c '%Hd:%Ld' "$MNT/fex/spool") != "$DEV" ]] ||
	fail "stat shows the mount's device for a subvolume; the test proves nothing"

find "$MNT" -printf '%p\t%i\t%y\n' |
	awk -F '\t' -v dev="$DEV" 'BEGIN {
		t["f"] = "file"; t["d"] = "dir"; t["l"] = "symlink"; t["b"] = "block"
		t["c"] = "char"; t["p"] = "fifo"; t["s"] = "socket"
	} { print $1 "\t" dev "\t" $2 "\t" t[$3] }' | sort >"$OUT/expected"
check_eq "fixture has a fifo, a symlink, files and dirs" "dir fifo file symlink" \
	"$(cut -f4 "$OUT/expected" | sort -u | tr '\n' ' ' | sed 's/ $//')"

walk json --json "$MNT"
check_walk_rc json 0
walk_tsv "$OUT/json" | cut -f1,2,4,5 | sort >"$OUT/actual"
check_files_eq "path, dev, ino, type" "$OUT/expected" "$OUT/actual"
check_eq "fstype of entries" "btrfs" \
	"$(jq -r 'select(.event == "entry") | .fstype' "$OUT/json" | sort -u | tr '\n' ' ' | sed 's/ $//')"

finish
