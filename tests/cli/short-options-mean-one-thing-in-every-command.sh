#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A short option means one thing in every command that has it, as in
# util-linux: -J is --json, -n is --noheadings, -o is --output; -P is
# audit's --pairs, and walk's help says its -P, -H and -L are find's; mount's
# dry run is -f (mount -f), never -n.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# short_meaning COMMAND LETTER: the long option its help pairs with -LETTER.
short_meaning() {
	"$BTRFS_INO" "$1" --help | sed -n "s/^  -$2, \(--[a-z-]*\).*/\1/p"
}
for command in walk audit suggest; do
	[ "$(short_meaning "$command" J)" = --json ] ||
		fail "$command -J is not --json: '$(short_meaning "$command" J)'"
done
for command in walk audit; do
	[ "$(short_meaning "$command" n)" = --noheadings ] ||
		fail "$command -n is not --noheadings"
	[ "$(short_meaning "$command" o)" = --output ] ||
		fail "$command -o is not --output"
done
[ "$(short_meaning mount n)" = "" ] || fail "mount has -n: $(short_meaning mount n)"
[ "$(short_meaning mount f)" = --dry-run ] || fail "mount -f is not --dry-run"
[ "$(short_meaning audit P)" = --pairs ] || fail "audit -P is not --pairs"
"$BTRFS_INO" walk --help | grep -q "^  -P  *never follow symbolic links" ||
	fail "walk's help does not give -P to find's meaning"
"$BTRFS_INO" walk --help | grep -q "are find's" ||
	fail "walk's help does not say -P, -H and -L are find's"
# The letters work, not only the help: suggest -J and mount -f parse.
run suggest -J --format exports /nonexistent
grep -q "excludes --format\|exclude each other" "$ERR" ||
	fail "suggest -J is not --json: $(cat "$ERR")"
run mount -n
[ "$RC" = 2 ] || fail "mount -n is accepted (exit $RC)"
grep -q "invalid option -- 'n'" "$ERR" || fail "mount -n: $(cat "$ERR")"
