#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino exec` whose preload library is missing runs nothing: exit 2, the library named on stderr.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

BTRFS_INO_EXEC_PRELOAD=$TMP/missing.so run exec -- touch "$TMP/ran"
check_eq "exit status" 2 "$RC"
[[ ! -e $TMP/ran ]] || fail "COMMAND ran without its preload library"
grep -qF "btrfs-ino: $TMP/missing.so: exec: cannot find the preload library" "$ERR" ||
	fail "stderr: $(cat "$ERR")"
