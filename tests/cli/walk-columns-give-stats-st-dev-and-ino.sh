#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# walk -o ST_DEV,INO,SIZE,PATH --raw gives, per entry, the st_dev stat(1)
# reports (MAJOR:MINOR), the inode and the size; --pairs the same values as
# NAME="value"; --noheadings drops the heading line; every entry find lists.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP/t/d"
printf 'abc' >"$TMP/t/f"
printf '12345' >"$TMP/t/d/g"

find "$TMP/t" -exec stat -c '%Hd:%Ld %i %s %n' {} + | sort >"$TMP/expected"
run walk --raw -n -o ST_DEV,INO,SIZE,PATH "$TMP/t"
check_eq "exit status" 0 "$RC"
sort "$OUT" >"$TMP/raw"
check_files_eq "--raw -n rows" "$TMP/expected" "$TMP/raw"

run walk --pairs -o st_dev,ino,size,path "$TMP/t"
sed -E 's/^ST_DEV="([^"]*)" INO="([^"]*)" SIZE="([^"]*)" PATH="([^"]*)"$/\1 \2 \3 \4/' "$OUT" |
	sort >"$TMP/pairs"
check_files_eq "--pairs rows" "$TMP/expected" "$TMP/pairs"
run walk --raw -o ST_DEV,PATH "$TMP/t"
check_eq "--raw heading" "ST_DEV PATH" "$(head -n 1 "$OUT")"
