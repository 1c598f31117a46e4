#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino exec` with no COMMAND: exit 2, a hint on stderr, nothing on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for args in "exec" "exec --"; do
	# shellcheck disable=SC2086 # split on purpose
	run $args
	check_eq "exit status of '$args'" 2 "$RC"
	check_eq "stdout of '$args'" "" "$(cat "$OUT")"
	grep -qF "Try 'btrfs-ino exec --help'" "$ERR" || fail "stderr of '$args': $(cat "$ERR")"
done
