#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# fex exported with crossmnt and fex/spool mounted on its own path (what
# suggest --diff and mount -a leave), its snapshots not mounted: the audit
# is unsafe, suggest --diff has nothing left to change, so next: names the
# step that remains, btrfs-ino mount PATH; run as printed, it makes the
# export safe.
source "$(dirname -- "$0")/audit-lib.sh"
spool_mounted_crossmnt
fex=$FEX
spool=$SPOOL
mount -o "subvol=fex/spool/inner" -- "$LOOP" "$spool/inner"

run_cli suggest diff -q --diff --exports "$OUT/exports" "$fex"
check_rc diff "$RUN_RC" 0
check_eq "suggest --diff has nothing to change" "" "$(cat "$OUT/diff")"

audit text -q --exports "$OUT/exports" "$fex"
check_audit_rc text 1
# (a line the command would pass 80 columns on goes on after " \")
check_eq "the next step" "next: btrfs-ino mount --exports $OUT/exports $fex" \
	"$(sed -n '/^next: /,$p' "$OUT/text" | sed 's/ \\$//; s/^ *//' | paste -sd' ')"
# The command as printed: after it the export is safe.
"$BTRFS_INO" mount -q --exports "$OUT/exports" "$fex" >/dev/null ||
	fail "btrfs-ino mount failed"
audit again -q --exports "$OUT/exports" "$fex"
check_audit_rc again 0
finish
