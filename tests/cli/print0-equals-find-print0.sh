#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `walk -0` prints the same NUL-terminated paths as `find -print0`, byte for byte.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/tree
mkdir -p "$dir/a/b" "$dir/with space" "$dir/"$'new\nline'
touch "$dir/a/f" "$dir/a/b/g" "$dir/"$'tab\tname' "$dir/"$'raw\xff' "$dir/with space/h"
ln -s a "$dir/link"
mkfifo "$dir/fifo"

run walk -0 "$dir"
check_eq "exit status" 0 "$RC"
sort -z "$OUT" >"$TMP/got"
find "$dir" -print0 | sort -z >"$TMP/want"
check_files_eq "walk -0 vs find -print0 (sorted)" "$TMP/want" "$TMP/got"
