#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --output-file FILE writes to FILE what standard output would get,
# in every format (the Prometheus duration and timestamp samples aside, which
# differ from run to run), as a regular file of mode 0644 whatever the umask, prints
# nothing on standard output and leaves no other file beside FILE; with a
# finding (an exports file exportfs stops reading) it exits 1 and still
# writes FILE.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/audited
mkdir "$dir" "$TMP/out"
touch "$dir/f"
exports=$TMP/exports
printf '%s *(rw)\n%s h(rw,no_subtree,check)\n' "$dir" "$dir" >"$exports"
file=$TMP/out/audit.out

# same FORMAT ARGS...: the run to stdout and the run to FILE agree.
same() {
	local format=$1
	shift
	run audit -q --exports "$exports" "$@" "$dir"
	check_eq "$format: exit status to stdout" 1 "$RC"
	grep -Ev '^btrfs_ino_audit_(duration_seconds|last_success_timestamp_seconds) ' "$OUT" >"$TMP/expected"
	RC=0
	(umask 077 && "$BTRFS_INO" audit -q --exports "$exports" "$@" --output-file "$file" "$dir" \
		>"$TMP/stdout" 2>"$TMP/stderr") || RC=$?
	check_eq "$format: exit status with --output-file (a finding)" 1 "$RC"
	check_eq "$format: standard output" "" "$(cat "$TMP/stdout")"
	if [ ! -f "$file" ] || [ -L "$file" ]; then
		fail "$format: $file is not a regular file"
	fi
	check_eq "$format: mode" 644 "$(stat -c %a "$file")"
	check_eq "$format: files in the directory" audit.out "$(ls -A "$TMP/out")"
	grep -Ev '^btrfs_ino_audit_(duration_seconds|last_success_timestamp_seconds) ' "$file" >"$TMP/actual"
	check_files_eq "$format: the file holds the output" "$TMP/expected" "$TMP/actual"
}
same text
same json --json
same prometheus --format prometheus
