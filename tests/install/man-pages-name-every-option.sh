#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino(1) documents what the binary accepts: every command of
# `btrfs-ino --help` in SYNOPSIS and COMMANDS, every option of each
# command's --help in that command's OPTIONS subsection (the common ones
# under "Common options"), and the exit statuses 0, 1 and 2.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO:?BTRFS_INO must name the built btrfs-ino}"
command -v groff >/dev/null || skip_or_fail "needs groff (groff-base)"

TMP=$(mktemp -d /tmp/bino-man-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
page=$SRCDIR/man/btrfs-ino.1
# Plain text, no hyphenation or wrapping that could split an option.
groff -t -man -Tascii -P-c -P-b -P-u -rLL=250n "$page" 2>/dev/null >"$TMP/page"

# section TITLE: the text of a section ("NAME") or subsection ("   walk
# options"), up to the next heading of the same or a higher level.
section() {
	awk -v title="$1" '
		$0 == title { on = 1; next }
		on && /^[A-Z]/ { exit }
		on && /^   [^ ]/ && title ~ /^   / { exit }
		on { print }' "$TMP/page"
}

failures=0
missing() {
	printf '%s: FAIL: %s\n' "$TEST_NAME" "$*" >&2
	failures=$((failures + 1))
}
# has_word TEXT_FILE WORD: WORD appears, not as part of a longer option.
has_word() {
	grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" "$1"
}

section SYNOPSIS >"$TMP/synopsis"
section COMMANDS >"$TMP/commands"
commands=$(help_commands)
[[ -n $commands ]] || fail "btrfs-ino --help lists no command"
for command in $commands; do
	grep -q "btrfs-ino $command" "$TMP/synopsis" || missing "command $command not in SYNOPSIS"
	grep -qE "^       $command( |\$)" "$TMP/commands" || missing "command $command not in COMMANDS"
done

section '   Common options' >"$TMP/common"
for opt in $(help_options); do
	has_word "$TMP/common" "$opt" || missing "btrfs-ino $opt not under Common options"
done
for command in $commands; do
	[[ $command != help ]] || continue
	section "   $command options" >"$TMP/$command"
	[[ -s $TMP/$command ]] || { missing "no '$command options' subsection"; continue; }
	for opt in $(help_options "$command"); do
		has_word "$TMP/$command" "$opt" || missing "$command $opt not under '$command options'"
	done
done

section 'EXIT STATUS' >"$TMP/exit"
for status in 0 1 2; do
	grep -qE "^ +$status " "$TMP/exit" || missing "exit status $status not in EXIT STATUS"
done

((failures == 0)) || fail "$failures omission(s) in btrfs-ino(1)"
printf '%s: ok (%d commands)\n' "$TEST_NAME" "$(wc -w <<<"$commands")"
