#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Offline, with util-linux's mountinfo-nonroot fixture (no mount on "/"), a
# directory that exists here is on no mount of the file: audit and suggest
# both refuse it saying so, never "No such file or directory" (exit 2, in
# text and JSON alike; JSON's step is the short token "not_found").
set -euo pipefail
. "$(dirname "$0")/lib.sh"
DATA=$(cd -- "$(dirname -- "$0")/../data/mountinfo" && pwd)
mi=$DATA/util-linux-findmnt-mountinfo-nonroot.mountinfo
dir=$(realpath -- "$TMP")
# The fixture's mount points, none of which holds $dir.
if awk -v d="$dir" '$5 == "/" || index(d "/", $5 "/") == 1 { found = 1 } END { exit !found }' "$mi"; then
	fail "$mi has a mount holding $dir: the test proves nothing"
fi
why="No mount holds the path: the --mountinfo file lists no mount at or above it"

for command in audit suggest; do
	run "$command" --mountinfo "$mi" "$dir"
	check_eq "$command: exit status" 2 "$RC"
	check_eq "$command: stderr" "btrfs-ino: $dir: $why" "$(cat "$ERR")"
	grep -q 'No such file' "$OUT" && fail "$command: stdout says No such file: $(cat "$OUT")"
	run "$command" --json --mountinfo "$mi" "$dir"
	check_eq "$command --json: exit status" 2 "$RC"
	check_eq "$command --json: error" \
		"not_found|0|the --mountinfo file lists no mount at or above it" \
		"$(jq -r '.exports[0].error | "\(.step)|\(.errno)|\(.message)"' "$OUT")"
done
