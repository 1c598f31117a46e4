#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# When the etab named is absent, the exports file is audited instead and
# that is said once on stderr: stdout, from the table to the next: line,
# holds no note of it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

audit_with_etab "$TMP/absent"
check_eq "exit status" 0 "$RC"
grep -q "$TMP/absent" "$OUT" && fail "stdout names the etab: $(cat "$OUT")"
check_eq "stderr" \
	"btrfs-ino: $TMP/absent: absent (no NFS server running?): auditing $TMP/exports instead" \
	"$(cat "$ERR")"
check_eq "the last line" "next: nothing to change; 'btrfs-ino suggest PATH' shows the client mounts" \
	"$(tail -n 1 "$OUT")"
