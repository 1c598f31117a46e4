#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Nothing exported is nothing to do, not an error: btrfs-ino-mount.service
# runs mount at every boot, and a server whose exports were emptied must not
# fail the unit each time (exit 0, as the man page says, one line on stderr).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

: >"$TMP/exports"
run mount --dry-run --exports "$TMP/exports"
check_eq "exit status" 0 "$RC"
check_eq "stdout" "" "$(cat "$OUT")"
check_eq "stderr" "btrfs-ino: mount: no exports; nothing to do" "$(cat "$ERR")"
