#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# On an 80-column terminal (a pty from script(1) set to 80 columns) no line
# of the audit is wider than 80 columns, the first lines are the export's
# verdict (the tools that break, with find's counts, and the fix), and the
# last names the next command, "btrfs-ino suggest --exports FILE PATH".
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture
command -v script >/dev/null || skip_or_fail "needs script(1) (bsdutils)"
locale -a 2>/dev/null | grep -qix 'c\.utf-\?8' || skip_or_fail "needs the C.UTF-8 locale"

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
find_listing "$fex" "$OUT/listing"
read -r loop hardlink plain <<<"$(expected_counts "$fex" "$OUT/listing")"

LC_ALL=C.UTF-8 NO_COLOR=1 COLUMNS=80 script -qec \
	"stty cols 80 rows 50; '$BTRFS_INO' audit -q --exports '$OUT/exports' '$fex'" \
	/dev/null >"$OUT/tty" 2>&1 || true
tr -d '\r' <"$OUT/tty" >"$OUT/screen"
# The verdict in the tools' words, with find's counts, then the fix.
check_eq "the verdict" "$fex: unsafe: find reports $loop loops; tar, rsync -H and du merge $hardlink files; cp and diff mistake $plain files for others; fix: mount each subvolume on its own (see next: below)" \
	"$(awk '/^$/ { exit } { sub(/^  /, ""); printf "%s%s", (NR > 1 ? " " : ""), $0 }' "$OUT/screen")"
# The next command carries --exports, so it answers for the same table.
check_eq "the next command" "next: btrfs-ino suggest --exports $OUT/exports $fex" \
	"$(sed -n '/^next: /,$p' "$OUT/screen" | sed 's/ \\$//; s/^ *//' | paste -sd' ')"
check_eq "lines wider than 80 columns" "" \
	"$(while IFS= read -r line; do
		w=$(printf '%s\n' "$line" | LC_ALL=C.UTF-8 wc -L)
		((w <= 80)) || printf '%s: %s\n' "$w" "$line"
	done <"$OUT/screen")"
# The table was fitted, not cut: every row of the table shows its counts
# (a NAME too long for its column gets a line of its own, as in findmnt).
audit_tree pairs --exports "$OUT/exports" "$fex"
check_eq "rows of the table" "$(wc -l <"$OUT/pairs")" \
	"$(awk '/^NAME / { on = 1; next } /^\(collisions between/ { on = 0 }
		on && / [0-9]+ +[0-9]+ +[0-9]+ /' "$OUT/screen" | wc -l)"
finish
