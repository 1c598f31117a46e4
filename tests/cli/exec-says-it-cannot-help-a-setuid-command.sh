#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino exec` names a COMMAND that is set-user-ID to someone else (the loader drops LD_PRELOAD) and still runs it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [[ $(id -u) -ne 0 ]]; then
	[[ ${CI:-} == true ]] && fail "needs root to make a set-user-ID program of another user"
	echo "SKIP: needs root"
	exit 77
fi
cp /bin/true "$TMP/suid-true"
chown 65534 "$TMP/suid-true"
chmod 4755 "$TMP/suid-true"
run exec -- "$TMP/suid-true"
check_eq "exit status" 0 "$RC"
grep -qF "btrfs-ino: $TMP/suid-true: exec: set-user-ID or set-group-ID program" "$ERR" ||
	fail "stderr: $(cat "$ERR")"

# Set-user-ID to the caller itself: no secure execution, nothing to say.
chown 0 "$TMP/suid-true"
chmod 4755 "$TMP/suid-true"
run exec -- "$TMP/suid-true"
check_eq "stderr for set-user-ID to the caller" "" "$(cat "$ERR")"
