#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino exec` names a statically linked COMMAND (no PT_INTERP) on stderr and still runs it; a dynamic one is silent.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# A static program from the system, judged by readelf, not by the code under test.
static=
for candidate in /sbin/ldconfig /bin/busybox /usr/bin/busybox; do
	if [[ -x $candidate ]] && readelf -lW "$candidate" 2>/dev/null | grep -q 'LOAD' &&
		! readelf -lW "$candidate" | grep -q 'INTERP'; then
		static=$candidate
		break
	fi
done
if [[ -z $static ]]; then
	[[ ${CI:-} == true ]] && fail "no statically linked program found"
	echo "SKIP: no statically linked program found"
	exit 77
fi
run exec -- "$static" --help
grep -qF "btrfs-ino: $static: exec: statically linked" "$ERR" || fail "stderr: $(cat "$ERR")"
[[ -s $OUT ]] || fail "$static --help printed nothing: not run?"

readelf -lW /bin/true | grep -q INTERP || fail "/bin/true is not dynamic here"
run exec -- /bin/true
check_eq "exit status of true" 0 "$RC"
check_eq "stderr for a dynamic program" "" "$(cat "$ERR")"
