#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# examples/bino-find.c, built with pkg-config against a DESTDIR install
# (prefix /usr), prints on the classic btrfs layout exactly what GNU find
# prints, for -name/-type/-maxdepth/-mindepth combinations and -print0;
# counts hard links as find does; and reports a true loop (a bind mount of
# spool inside itself) in GNU find's words, with find's exit status.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/../root/lib.sh"
# shellcheck source=tests/install/lib.sh
source "$(dirname -- "$0")/lib.sh"
# shellcheck disable=SC2119 # setup_fixture takes no arguments here
setup_fixture
command -v pkg-config >/dev/null || skip_or_fail "needs pkg-config"

install_tree "$WORK" /usr
dest_cc "$WORK/bino-find" "$SRCDIR/examples/bino-find.c" -Wall -Wextra -Werror

# Subvolume roots all have inode 256: no loop may be reported for them.
failures=0
compare_with_find "$WORK/bino-find" "$MNT" "$OUT" || failures=$?
((failures == 0)) || fail "$failures difference(s) between bino-find and find"

dest_run "$WORK/bino-find" "$MNT" -count-links >/dev/null 2>"$OUT/links.err" ||
	fail "-count-links exited $?"
check_eq "-count-links summary" "$(expected_link_summary "$MNT")" "$(cat "$OUT/links.err")"
# The fixture's hard links: data/original (3 paths in spool, in s1, s2, s3)
# and data/two (2 paths in s1 and s2): distinct files although the inode
# numbers repeat across snapshots.
check_eq "hard-linked files in the fixture" 6 \
	"$(find "$MNT" ! -type d -links +1 -printf '%D:%i\n' | sort -u | wc -l)"

# A true loop: spool mounted again inside itself.
loop=$MNT/fex/spool/dir/loop
mount --bind "$MNT/fex/spool" "$loop"
find_rc=0
find "$MNT" >"$OUT/find.loop" 2>"$OUT/find.loop.err" || find_rc=$?
bino_rc=0
dest_run "$WORK/bino-find" "$MNT" >"$OUT/bino.loop" 2>"$OUT/bino.loop.err" || bino_rc=$?
check_eq "exit status with a loop (find's)" "$find_rc" "$bino_rc"
check_eq "find's exit status with a loop" 1 "$find_rc"
check_eq "the loop message, as find words it" \
	"$(sed 's/^find: /bino-find: /' "$OUT/find.loop.err")" "$(cat "$OUT/bino.loop.err")"
check_eq "the loop message names the loop and spool" \
	"bino-find: File system loop detected; '$loop' is part of the same file system loop as '$MNT/fex/spool'." \
	"$(cat "$OUT/bino.loop.err")"
sort "$OUT/find.loop" >"$OUT/find.loop.sorted"
sort "$OUT/bino.loop" >"$OUT/bino.loop.sorted"
check_files_eq "paths with a loop" "$OUT/find.loop.sorted" "$OUT/bino.loop.sorted"

finish
