#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Off NFS, `btrfs-ino exec -- find /usr` prints every entry with the same st_dev and inode as plain find.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# %D is st_dev as find gets it from the stat family, the numbers the preload may change.
format='%D %i %y %n %p\n'
find /usr -printf "$format" >"$TMP/plain" 2>"$TMP/plain-err" || true
run exec -- find /usr -printf "$format"
check_eq "exit status" 0 "$RC"
check_eq "stderr" "" "$(cat "$ERR")"
[[ -s $TMP/plain ]] || fail "plain find listed nothing"
check_files_eq "find /usr under exec" "$TMP/plain" "$OUT"
