#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A command one or two edits from a real one (a swap counts as one, as in
# git) gets "Did you mean"; one far from every command gets none.  Both
# exit 2 with the "Try" line, as "help NAME" does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for typo in audti "help audti"; do
	# shellcheck disable=SC2086 # "help audti" is two words
	run $typo
	[ "$RC" = 2 ] || fail "$typo: exit status $RC"
	[ "$(cat "$ERR")" = "btrfs-ino: unknown command 'audti'
Did you mean 'btrfs-ino audit'?
Try 'btrfs-ino --help' for more information." ] || fail "$typo: $(cat "$ERR")"
done
run sugest
grep -qx "Did you mean 'btrfs-ino suggest'?" "$ERR" || fail "sugest: $(cat "$ERR")"
run frobnicate
[ "$RC" = 2 ] || fail "frobnicate: exit status $RC"
grep -q "Did you mean" "$ERR" && fail "frobnicate gets a suggestion: $(cat "$ERR")"
true
