#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A user's build against an installed libbtrfsino works: examples/bino-find.c
# and the program of libbtrfsino(3) compile warning-free with only
# `pkg-config --cflags --libs btrfsino` of a DESTDIR install, load the
# DESTDIR's library, and on an ordinary directory tree bino-find prints what
# GNU find prints.  (tests/install/bino-find-equals-find-on-btrfs.sh does the
# same on btrfs, with a loop.)
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
command -v pkg-config >/dev/null || skip_or_fail "needs pkg-config"

TMP=$(mktemp -d /tmp/bino-install-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
install_tree "$TMP" /usr
warn=(-Wall -Wextra -Werror)

dest_cc "$TMP/bino-find" "$SRCDIR/examples/bino-find.c" "${warn[@]}"
loaded=$(dest_run ldd "$TMP/bino-find" | awk '$1 == "libbtrfsino.so.1" { print $3 }')
[[ $loaded == "$DEST$LIBDIR/libbtrfsino.so.1" ]] || fail "bino-find loads '$loaded'"

man_example "$DEST/usr/share/man/man3/libbtrfsino.3" >"$TMP/walkids.c"
grep -q 'int' "$TMP/walkids.c" || fail "no example program in libbtrfsino(3)"
dest_cc "$TMP/walkids" "$TMP/walkids.c" -std=c11 -pedantic "${warn[@]}"

# A tree with every type find can tell without privilege, hard links, and
# names with spaces, a newline and a byte that is not UTF-8.
t=$TMP/tree
mkdir -p "$t/a/b/c/d" "$t/sub dir" "$t/s1/x" "$t/s2"
echo a >"$t/a/a.txt"
echo hidden >"$t/a/.hidden.txt"
echo b >"$t/a/b/b.txt"
echo deep >"$t/a/b/c/d/deep.txt"
echo o >"$t/s1/original"
ln "$t/s1/original" "$t/s2/hard1"
ln "$t/s1/original" "$t/a/b/hard2"
echo two >"$t/s1/two.txt"
ln "$t/s1/two.txt" "$t/s2/hard-two"
ln -s ../s1/original "$t/s2/rel"
ln -s does-not-exist "$t/s2/dangling"
mkfifo "$t/s1/fifo"
touch "$t/sub dir/name with spaces.txt" "$t/sub dir/new"$'\n'"line" "$t/sub dir/"$'\xff'

failures=0
compare_with_find "$TMP/bino-find" "$t" "$TMP" || failures=$?

# -count-links: the summary on stderr, from find's own count.
dest_run "$TMP/bino-find" "$t" -count-links >/dev/null 2>"$TMP/links.err"
want=$(expected_link_summary "$t")
if [[ $(cat "$TMP/links.err") != "$want" ]]; then
	printf '%s: FAIL: -count-links said %s, expected %s\n' "$TEST_NAME" \
		"$(cat "$TMP/links.err")" "$want" >&2
	failures=$((failures + 1))
fi

# The man page's program: every path find lists, and the files with more
# than one link.
dest_run "$TMP/walkids" "$t" >"$TMP/walkids.out" 2>"$TMP/walkids.err" ||
	fail "the libbtrfsino(3) example exited $?: $(cat "$TMP/walkids.err")"
find "$t" | sort >"$TMP/find.all"
cut -d' ' -f2- "$TMP/walkids.out" | sort >"$TMP/walkids.paths"
# (the name with a newline spans two lines in both)
cmp -s "$TMP/find.all" "$TMP/walkids.paths" || { failures=$((failures + 1)); echo "example: paths differ from find" >&2; }
want="$(find "$t" ! -type d -links +1 -printf '%D:%i\n' | sort -u | wc -l) files with more than one link"
[[ $(cat "$TMP/walkids.err") == "$want" ]] ||
	{ failures=$((failures + 1)); echo "example: stderr '$(cat "$TMP/walkids.err")', expected '$want'" >&2; }

((failures == 0)) || fail "$failures difference(s)"
printf '%s: ok\n' "$TEST_NAME"
