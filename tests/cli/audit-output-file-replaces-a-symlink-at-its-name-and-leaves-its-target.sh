#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A symbolic link at the name audit --output-file writes is replaced by the
# new file, never followed: the file it pointed to keeps its bytes and its
# mode 0600.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/audited
mkdir "$dir" "$TMP/out"
printf 'not to be written\n' >"$TMP/victim"
chmod 0600 "$TMP/victim"
cp -p "$TMP/victim" "$TMP/victim.before"
ln -s "$TMP/victim" "$TMP/out/metrics.prom"

run audit -q --exports /dev/null --format prometheus --output-file "$TMP/out/metrics.prom" "$dir"
check_eq "exit status" 0 "$RC"
check_files_eq "the link's target" "$TMP/victim.before" "$TMP/victim"
check_eq "the target's mode" 600 "$(stat -c %a "$TMP/victim")"
if [ ! -f "$TMP/out/metrics.prom" ] || [ -L "$TMP/out/metrics.prom" ]; then
	fail "metrics.prom is not a regular file: $(ls -l "$TMP/out/metrics.prom")"
fi
grep -q '^btrfs_ino_audit_safe{path=".*/audited"} 1$' "$TMP/out/metrics.prom" ||
	fail "metrics.prom lacks the audit's metrics: $(cat "$TMP/out/metrics.prom")"
