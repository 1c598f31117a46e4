#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Without a PATH the audit is of what the NFS server exports and nothing else
# (btrfs-ino-audit.service runs it so): the fixture's btrfs is mounted and
# unsafe, but only the one exported directory below it is audited, the text
# names the table audited, and the metrics say that path is exported, to
# whom.  With nothing exported there is nothing unsafe: exit 0, said once.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

exported_plain_dir
plain=$PLAIN
write_exports "$OUT/exports" "$plain 127.0.0.1($ETAB_OPTIONS)"

audit text --etab "$OUT/etab" --exports "$OUT/exports" --fstab /dev/null
check_audit_rc text 0
check_eq "one verdict, for the exported path only" "$plain: safe" \
	"$(grep -E ': (safe|unsafe)' "$OUT/text")"
grep -qF "(audited: every path exported in $OUT/etab)" "$OUT/text" ||
	fail "the text does not name the table audited: $(cat "$OUT/text")"

audit prom --format prometheus --etab "$OUT/etab" --exports "$OUT/exports" --fstab /dev/null
check_audit_rc prom 0
check_eq "the metrics hold the exported path alone, exported to its client" \
	"btrfs_ino_audit_exported{path=\"$plain\",clients=\"127.0.0.1\"} 1" \
	"$(grep '^btrfs_ino_audit_exported' "$OUT/prom")"
check_eq "no verdict for the fixture's unexported, unsafe btrfs" \
	"btrfs_ino_audit_safe{path=\"$plain\"} 1" "$(grep '^btrfs_ino_audit_safe' "$OUT/prom")"

: >"$OUT/empty"
audit none --etab "$OUT/empty" --exports "$OUT/empty" --fstab /dev/null
check_audit_rc none 0
check_eq "nothing exported is said once, last, on stdout" \
	"1 nothing exported in $OUT/empty: no NFS client sees a subvolume here" \
	"$(grep -c 'nothing exported' "$OUT/none") $(tail -n 1 "$OUT/none")"
audit none-prom --format prometheus --etab "$OUT/empty" --exports "$OUT/empty" --fstab /dev/null
check_audit_rc none-prom 0
check_eq "nothing exported: no per-path series, the last success still written" \
	"0 1" "$(grep -c '{path=' "$OUT/none-prom" || true) $(grep -c '^btrfs_ino_audit_last_success_timestamp_seconds [0-9]' "$OUT/none-prom")"
finish
