#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A bad option gets util-linux's two lines and nothing more: getopt's message
# under the program's name (never the install path, never the command's
# name), then "Try 'btrfs-ino [COMMAND] --help' for more information."
set -euo pipefail
. "$(dirname "$0")/lib.sh"

check() {
	local command=$1 message=$2
	shift 2
	run "$@"
	check_eq "exit status of '$*'" 2 "$RC"
	check_eq "stderr of '$*'" \
		"btrfs-ino: $message
Try 'btrfs-ino${command:+ $command} --help' for more information." "$(cat "$ERR")"
}

check "" "unrecognized option '--bogus'" --bogus
check "" "invalid option -- 'Z'" -Z
for command in walk audit suggest mount exec; do
	check "$command" "unrecognized option '--bogus'" "$command" --bogus "$TMP"
	check "$command" "invalid option -- 'Z'" "$command" -Z "$TMP"
done
check walk "option '--maxdepth' requires an argument" walk "$TMP" --maxdepth
