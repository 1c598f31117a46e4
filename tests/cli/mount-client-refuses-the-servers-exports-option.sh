#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --client reads no exports (the server's side does): --exports with
# it is a usage error, exit 2, before any DIR is looked at.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: >"$TMP/exports"
run mount --dry-run --client --exports "$TMP/exports" "$TMP/missing"
check_eq "exit status" 2 "$RC"
check_eq "stdout" "" "$(cat "$OUT")"
check_eq "stderr" "btrfs-ino: --client reads no exports: --exports is the server's option
Try 'btrfs-ino mount --help' for more information." "$(cat "$ERR")"
