#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A long option one or two edits from one the command has (a swap counts
# as one) gets "Did you mean" between getopt's message and the Try line, in
# every command and before any: --exprots is --exports, also as
# --exprots=FILE.  An option far from all gets none.  All exit 2.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# check COMMAND TYPO MEANT: `btrfs-ino [COMMAND] TYPO` says exactly this.
check() {
	local command=$1 typo=$2 meant=$3
	# shellcheck disable=SC2086 # an empty COMMAND is no word
	run $command "$typo" "$TMP"
	check_eq "exit status of '$command $typo'" 2 "$RC"
	check_eq "stderr of '$command $typo'" \
		"btrfs-ino: unrecognized option '$typo'
Did you mean '$meant'?
Try 'btrfs-ino${command:+ $command} --help' for more information." "$(cat "$ERR")"
}

check "" --verison --version
check walk --maxdpeth --maxdepth
check audit --exprots --exports
check audit --exprots=/etc/exports --exports
check suggest --exprots --exports
check mount --dry-rnu --dry-run
check mount --max-user-mount3 --max-user-mounts
check exec --hepl --help

run audit --frobnicate "$TMP"
check_eq "exit status of 'audit --frobnicate'" 2 "$RC"
grep -q "Did you mean" "$ERR" && fail "--frobnicate gets a suggestion: $(cat "$ERR")"
true
