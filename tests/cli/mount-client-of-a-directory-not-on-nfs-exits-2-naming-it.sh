#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --client takes a client's NFS mount of an export: a DIR on any other
# filesystem (here the test's temporary directory, as stat -f names it) exits 2
# with one line naming it and saying so, and nothing on stdout; a missing DIR
# is named with the system's reason.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

fstype=$(stat -f -c %T "$TMP")
[[ $fstype != nfs ]] || skip_or_fail "the temporary directory is on NFS"
mkdir "$TMP/dir"
run mount --dry-run --client "$TMP/dir"
check_eq "exit status" 2 "$RC"
check_eq "stdout" "" "$(cat "$OUT")"
check_eq "stderr" \
	"btrfs-ino: mount: $TMP/dir: not on NFS: --client takes the client's NFS mount of an export" \
	"$(cat "$ERR")"

run mount --dry-run --client "$TMP/missing"
check_eq "exit status for a missing DIR" 2 "$RC"
check_eq "stderr for a missing DIR" \
	"btrfs-ino: mount: $TMP/missing: No such file or directory" "$(cat "$ERR")"
