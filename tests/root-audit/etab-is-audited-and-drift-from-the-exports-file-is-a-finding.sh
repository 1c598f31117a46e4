#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# With an etab (the table exportfs left, what clients get now) the audit
# audits it and compares the exports file with it: the etab exportfs wrote
# for the file is no drift (exit 0 on a safe directory); an edit not applied
# (options changed, a line added) and an export the file no longer holds
# are each one finding naming "exportfs -ra" (exit 1), with the options of
# both sides in JSON.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

plain=$WORK/plain
other=$WORK/other
mkdir -p -- "$plain/a" "$other"
echo one >"$plain/a/one"
etab_line "$plain" >"$OUT/etab"
write_exports "$OUT/same.exports" "$plain 127.0.0.1($ETAB_OPTIONS)"
etab_options=$(cut -f2 "$OUT/etab" | sed 's/^127\.0\.0\.1(//; s/)$//')

audit same --json --etab "$OUT/etab" --exports "$OUT/same.exports" "$plain"
check_audit_rc same 0
check_eq "the etab is the table audited" "etab $OUT/etab read" \
	"$(jq -r '.export_table | "\(.audited) \(.etab) \(.etab_state)"' "$OUT/same")"
check_eq "the export audited is the etab's line" "$OUT/etab 1 $etab_options" \
	"$(jq -r '.exports[0].export | "\(.file) \(.line) \(.options)"' "$OUT/same")"
check_eq "no exports drift" 0 "$(jq '.exports_drift | length' "$OUT/same")"

# Edited, not applied: rw becomes ro, crossmnt is added.
write_exports "$OUT/edited.exports" "# edited" "$plain 127.0.0.1(ro,async,no_subtree_check,no_root_squash,crossmnt)"
audit edited --json --etab "$OUT/etab" --exports "$OUT/edited.exports" "$plain"
check_audit_rc edited 1
check_eq "the edited line differs in access and crossmnt" \
	"options_differ $plain 127.0.0.1 $OUT/edited.exports:2 $OUT/etab:1 access=ro/rw crossmnt=crossmnt/nocrossmnt" \
	"$(jq -r '.exports_drift[] | "\(.kind) \(.path) \(.client) \(.files.file):\(.files.line) \(.in_effect.file):\(.in_effect.line) " +
		([.differences[] | "\(.option)=\(.files)/\(.in_effect)"] | join(" "))' "$OUT/edited")"
audit edited-text --etab "$OUT/etab" --exports "$OUT/edited.exports" "$plain"
grep -qF "export drift: $plain to 127.0.0.1: options of $OUT/edited.exports:2 are not those in effect ($OUT/etab:1): ro (in effect: rw), crossmnt (in effect: nocrossmnt); run exportfs -ra" \
	"$OUT/edited-text" || fail "the text report does not name the drift: $(grep drift "$OUT/edited-text")"

# A line added, and the old one removed.
write_exports "$OUT/moved.exports" "$other 127.0.0.1($ETAB_OPTIONS)"
audit moved --json --etab "$OUT/etab" --exports "$OUT/moved.exports" "$plain"
check_audit_rc moved 1
check_eq "the new line is not in effect, the old export is in no file" \
	"not_in_effect $other $OUT/moved.exports:1 null|not_in_files $plain null $OUT/etab:1" \
	"$(jq -r '[.exports_drift[] | "\(.kind) \(.path) \(if .files then "\(.files.file):\(.files.line)" else "null" end) \(if .in_effect then "\(.in_effect.file):\(.in_effect.line)" else "null" end)"] | join("|")' "$OUT/moved")"
audit moved-text --etab "$OUT/etab" --exports "$OUT/moved.exports" "$plain"
grep -qF "export drift: $other to 127.0.0.1: $OUT/moved.exports:1 is not in effect; run exportfs -ra" \
	"$OUT/moved-text" || fail "the text report does not name the line not in effect"
finish
