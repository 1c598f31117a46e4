#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# When audit exits 2 (nothing could be audited: the one path is missing),
# --output-file leaves FILE as it was, and no other file beside it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/out"
printf 'last good metrics\n' >"$TMP/out/metrics.prom"
cp -p "$TMP/out/metrics.prom" "$TMP/before"

run audit -q --exports /dev/null --format prometheus --output-file "$TMP/out/metrics.prom" "$TMP/missing"
check_eq "exit status" 2 "$RC"
check_files_eq "the file" "$TMP/before" "$TMP/out/metrics.prom"
check_eq "files in the directory" metrics.prom "$(ls -A "$TMP/out")"
