#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A long walk shows "entries, rate" on stderr when it is a terminal, erases
# the line at the end, and shows nothing under -q or when stderr is not a
# terminal.  The walk is made long, not timed: a reader that sleeps 1 s
# before reading holds it on a full pipe past the 500 ms the meter waits.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/tree"
(cd "$TMP/tree" && seq -f 'file-%05g' 30000 | xargs touch)
slow_reader='(sleep 1; cat >/dev/null)'

# on_terminal ARGS...: the walk with stderr on a pseudo-terminal (script(1)).
on_terminal() {
	script -q -e -c "'$BTRFS_INO' walk $* '$TMP/tree' | $slow_reader" \
		"$TMP/typescript" >/dev/null
	tr '\r' '\n' <"$TMP/typescript"
}

shown=$(on_terminal --threads 1)
grep -Eq '^.\[Kbtrfs-ino: walk: [0-9]+ entries, [0-9]+/s$' <<<"$shown" ||
	fail "no progress line on a terminal: $(cat -v <<<"$shown")"
last=$(grep -E 'entries|\[K' <<<"$shown" | tail -n 1 | cat -v)
check_eq "the line is erased at the end" '^[[K' "$last"

quiet=$(on_terminal --threads 1 -q)
if grep -q 'entries' <<<"$quiet"; then
	fail "progress shown under -q: $(cat -v <<<"$quiet")"
fi

"$BTRFS_INO" walk --threads 1 "$TMP/tree" 2>"$TMP/stderr" | (sleep 1; cat >/dev/null)
check_eq "stderr when it is not a terminal" "" "$(cat "$TMP/stderr")"
