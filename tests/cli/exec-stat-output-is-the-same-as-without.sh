#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Off NFS, stat(1) (statx) prints the same under `btrfs-ino exec` as without (access time aside), for files, links and directories.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/dir"
echo data >"$TMP/dir/file"
ln "$TMP/dir/file" "$TMP/dir/hardlink"
ln -s file "$TMP/dir/symlink"
# Every field stat(1) prints but the access time, which running programs moves.
format='%n|%d|%D|%i|%f|%F|%h|%u|%g|%s|%b|%B|%t|%T|%W|%Y|%Z|%N'
paths=(/ /usr /usr/bin /etc/passwd "$TMP/dir" "$TMP/dir/file" "$TMP/dir/hardlink" "$TMP/dir/symlink")

stat -c "$format" "${paths[@]}" >"$TMP/plain"
stat -L -c "$format" "${paths[@]}" >>"$TMP/plain"
run exec -- stat -c "$format" "${paths[@]}"
check_eq "exit status of stat" 0 "$RC"
mv "$OUT" "$TMP/exec"
run exec -- stat -L -c "$format" "${paths[@]}"
check_eq "exit status of stat -L" 0 "$RC"
cat "$OUT" >>"$TMP/exec"
check_files_eq "stat under exec" "$TMP/plain" "$TMP/exec"
