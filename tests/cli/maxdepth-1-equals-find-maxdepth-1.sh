#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `walk --maxdepth 1` lists what `find -maxdepth 1` lists.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/tree
mkdir -p "$dir/a/b" "$dir/c"
touch "$dir/a/f" "$dir/a/b/g" "$dir/top"
ln -s a "$dir/link"

run walk --maxdepth 1 -0 "$dir"
check_eq "exit status" 0 "$RC"
sort -z "$OUT" >"$TMP/got"
find "$dir" -maxdepth 1 -print0 | sort -z >"$TMP/want"
check_files_eq "walk --maxdepth 1 vs find -maxdepth 1 (sorted)" "$TMP/want" "$TMP/got"

run walk --maxdepth 0 -0 "$dir"
check_eq "--maxdepth 0 exit status" 0 "$RC"
find "$dir" -maxdepth 0 -print0 >"$TMP/want"
check_files_eq "walk --maxdepth 0 vs find -maxdepth 0" "$TMP/want" "$OUT"
