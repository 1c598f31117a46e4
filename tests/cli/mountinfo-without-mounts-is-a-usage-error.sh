#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An empty --mountinfo file (or one of comments only) describes no server:
# audit and suggest refuse it as a usage error naming the file (exit 2,
# nothing on stdout) instead of auditing with no mounts at all.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: >"$TMP/empty.mountinfo"
printf '# nothing\n\n' >"$TMP/comments.mountinfo"
for file in "$TMP/empty.mountinfo" "$TMP/comments.mountinfo"; do
	for command in audit suggest; do
		run "$command" --mountinfo "$file" "$TMP"
		check_eq "$command $file: exit status" 2 "$RC"
		check_eq "$command $file: stdout" "" "$(cat "$OUT")"
		check_eq "$command $file: stderr" \
			"btrfs-ino: $file: lists no mounts: not a mount table" "$(cat "$ERR")"
	done
done
