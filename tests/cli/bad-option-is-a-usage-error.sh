#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A bad option: exit 2, "Try 'btrfs-ino [walk] --help'" on stderr, nothing on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

check() {
	local want_try=$1
	shift
	run "$@"
	check_eq "exit status of '$*'" 2 "$RC"
	check_eq "stdout of '$*'" "" "$(cat "$OUT")"
	grep -qF -- "$want_try" "$ERR" ||
		fail "stderr of '$*' lacks \"$want_try\": $(cat "$ERR")"
}

check "Try 'btrfs-ino --help'" --bogus
check "Try 'btrfs-ino --help'" -Z
check "Try 'btrfs-ino walk --help'" walk --bogus "$TMP"
check "Try 'btrfs-ino walk --help'" walk -Z "$TMP"
check "Try 'btrfs-ino walk --help'" walk --maxdepth -1 "$TMP"
check "Try 'btrfs-ino walk --help'" walk --maxdepth x "$TMP"
