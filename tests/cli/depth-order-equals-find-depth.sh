#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `walk --depth` lists entries in `find -depth` order: contents before their directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/tree
mkdir -p "$dir/a/b/c" "$dir/d" "$dir/e/empty"
touch "$dir/a/f1" "$dir/a/b/f2" "$dir/a/b/c/f3" "$dir/d/f4" "$dir/top"
ln -s a "$dir/link"

run walk --depth -0 "$dir"
check_eq "exit status" 0 "$RC"
find "$dir" -depth -print0 >"$TMP/want"
check_files_eq "walk --depth vs find -depth (order kept)" "$TMP/want" "$OUT"
