#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The server fstab is read by libmount: a line it rejects (one field) is
# said once on stderr, "FILE: line N: libmount cannot read it: skipped", by
# audit and by suggest --diff alike, and the lines after it are still read
# with their own numbers: the snapshot line below it is drift, and the diff
# removes it.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v patch >/dev/null || skip_or_fail "needs patch"
setup_export
# -p: the device itself, not blkid's cache (a loop device is reused).
uuid=$(blkid -p -s UUID -o value "$LOOP")
s1=$FEX/spool/.snapshot/s1
s1_id=$(btrfs inspect-internal rootid -- "$s1")
FSTAB=$OUT/fstab
printf '%s\n' "# server fstab" "" "justone" \
	"UUID=$uuid $s1 btrfs subvolid=$s1_id 0 0" >"$FSTAB"
# libmount's own verdict on the file, for the record: line 3 only.
findmnt --verify --tab-file "$FSTAB" >"$OUT/verify" 2>&1 || true
grep -q 'parse error at line 3' "$OUT/verify" || fail "findmnt does not reject line 3: $(cat "$OUT/verify")"
message="btrfs-ino: $FSTAB: line 3: libmount cannot read it: skipped"

run_cli audit audit --json --exports "$EXPORTS" --fstab "$FSTAB" "$FEX"
check_rc audit "$RUN_RC" 1
check_eq "audit: the one message" "$message" "$(grep -F 'libmount' "$OUT/audit.err")"
check_eq "audit: the line below it" "4 snapshot $s1_id" \
	"$(jq -r '.fstab_drift[] | "\(.line) \(.kind) \(.subvolid)"' "$OUT/audit")"

suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff --format server-fstab "$FEX"
check_suggest_rc diff 1
check_eq "suggest --diff: the one message" "$message" "$(grep -F 'libmount' "$OUT/diff.err")"
patch -s "$FSTAB" <"$OUT/diff" >"$OUT/patch.log" 2>&1 || fail "patch: $(cat "$OUT/patch.log")"
check_eq "the snapshot line removed, the rejected one left to the admin" \
	"# server fstab||justone" "$(grep -v "^UUID=$uuid $FEX/spool btrfs\|^UUID=$uuid $FEX/spool/inner btrfs" "$FSTAB" | paste -sd '|')"
finish
