#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --client-dir and audit --suggest --client-dir take an absolute path:
# a relative or empty one exits 2 with one message, then the Try line, and
# nothing on stdout (before any path is looked at).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/tree"
for dir in rel/dir ./here .. ''; do
	for cmd in suggest audit; do
		args=("$cmd")
		[ "$cmd" = audit ] && args+=(--suggest)
		run "${args[@]}" --client-dir "$dir" "$TMP/tree"
		check_eq "exit status of ${args[*]} --client-dir '$dir'" 2 "$RC"
		check_eq "stdout of ${args[*]} --client-dir '$dir'" "" "$(cat "$OUT")"
		check_eq "stderr of ${args[*]} --client-dir '$dir'" \
			"btrfs-ino: --client-dir needs an absolute path
Try 'btrfs-ino $cmd --help' for more information." "$(cat "$ERR")"
	done
done
