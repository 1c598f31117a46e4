#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# No etab (no NFS server has run exportfs) or an empty one: the exports file
# is audited instead, a note on stderr says so (stdout holds the report
# alone), and that alone is no finding.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

plain=$WORK/plain
mkdir -p -- "$plain"
write_exports "$OUT/exports" "$plain 127.0.0.1($ETAB_OPTIONS)"
: >"$OUT/empty-etab"
for state in absent empty; do
	etab=$OUT/no-etab
	[[ $state == empty ]] && etab=$OUT/empty-etab
	audit "$state" --json --etab "$etab" --exports "$OUT/exports" "$plain"
	check_audit_rc "$state" 0
	check_eq "$state etab: the file is audited" "files $state $OUT/exports" \
		"$(jq -r '"\(.export_table.audited) \(.export_table.etab_state) \(.exports[0].export.file)"' "$OUT/$state")"
	audit "$state-text" --etab "$etab" --exports "$OUT/exports" "$plain"
	check_eq "$state etab: stderr says so" \
		"btrfs-ino: $etab: $state (no NFS server running?): auditing $OUT/exports instead" \
		"$(cat "$OUT/$state-text.err")"
	grep -qF "$etab" "$OUT/$state-text" && fail "$state etab: the report names it"
done
finish
