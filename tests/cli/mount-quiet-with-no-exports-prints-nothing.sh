#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The units run mount --quiet: with no exports it prints nothing at all, so
# the journal gets no line a minute, and exits 0.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

printf '# every export was removed\n' >"$TMP/exports"
run mount --quiet --dry-run --exports "$TMP/exports"
check_eq "exit status" 0 "$RC"
check_eq "stdout" "" "$(cat "$OUT")"
check_eq "stderr" "" "$(cat "$ERR")"
