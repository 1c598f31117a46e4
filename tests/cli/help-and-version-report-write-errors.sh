#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --help and --version that cannot be written (stdout is /dev/full) exit 1
# with "btrfs-ino: write error: No space left on device", as util-linux's
# tools do, instead of exiting 0 having printed nothing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ -w /dev/full ] || skip_or_fail "needs /dev/full"

for args in "--help" "--version" "-V" "help" "help walk" "walk --help" \
	"audit --help" "suggest --help" "mount --help" "exec --help"; do
	rc=0
	# shellcheck disable=SC2086
	"$BTRFS_INO" $args >/dev/full 2>"$TMP/err" || rc=$?
	check_eq "exit status of '$args' >/dev/full" 1 "$rc"
	check_eq "stderr of '$args' >/dev/full" \
		"btrfs-ino: write error: No space left on device" "$(cat "$TMP/err")"
done
