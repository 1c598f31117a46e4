#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --client with no DIR (once, or with --watch) is a usage error: exit 2,
# one line saying what it needs, the Try line, nothing on stdout.  (The
# server's mount takes no PATH to mean every export; a client has no such
# list.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for args in "--dry-run --client" "--client" "--watch --client"; do
	# shellcheck disable=SC2086 # the options are words
	run mount $args
	check_eq "exit status of mount $args" 2 "$RC"
	check_eq "stdout of mount $args" "" "$(cat "$OUT")"
	if [[ $(id -u) -eq 0 || $args == --dry-run* ]]; then
		check_eq "stderr of mount $args" \
			"btrfs-ino: --client needs a DIR: the client's NFS mount of an export
Try 'btrfs-ino mount --help' for more information." "$(cat "$ERR")"
	fi
done
