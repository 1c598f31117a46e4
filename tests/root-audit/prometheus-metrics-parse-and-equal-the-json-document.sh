#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --format prometheus writes the text exposition format node_exporter's
# textfile collector reads: promtool accepts it (required under CI), and a strict
# parser here always checks it (HELP and TYPE gauge before each metric's
# samples, names and labels well-formed, values numbers, no metric twice).
# Its values are the JSON document's: collisions per class, safe, audited,
# entries, unreadable; a path that could not be audited has audited 0.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
gone=$WORK/gone
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
audit json --json --exports "$OUT/exports" "$fex"
audit prom --format prometheus --exports "$OUT/exports" "$fex" "$gone"
check_audit_rc prom 1

if command -v promtool >/dev/null; then
	promtool check metrics <"$OUT/prom" >"$OUT/promtool" 2>&1 ||
		fail "promtool check metrics: $(cat "$OUT/promtool")"
elif [[ ${CI:-} == true ]]; then
	fail "needs promtool (Debian package prometheus) under CI"
fi
check_eq "strict parse" "" "$(awk '
	function bad(why) { print NR ": " why ": " $0; next }
	/^# HELP / {
		if ($3 in helped) bad("HELP twice")
		helped[$3] = 1; name = $3; next
	}
	/^# TYPE / {
		if ($3 != name || $4 != "gauge" || NF != 4) bad("TYPE")
		typed[$3] = 1; next
	}
	/^#/ || /^$/ { bad("stray line") }
	{
		if (!match($0, /^[a-zA-Z_:][a-zA-Z0-9_:]*/)) bad("metric name")
		metric = substr($0, 1, RLENGTH); rest = substr($0, RLENGTH + 1)
		if (metric != name || !typed[metric]) bad("sample without its HELP and TYPE")
		if (rest ~ /^\{/) {
			if (!match(rest, /^\{[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\[\\"n])*")*\}/))
				bad("labels")
			labels = substr(rest, 1, RLENGTH); rest = substr(rest, RLENGTH + 1)
			if ((metric labels) in seen) bad("sample twice")
			seen[metric labels] = 1
		}
		if (rest !~ /^ [-+]?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/) bad("value")
	}' "$OUT/prom")"

value() { awk -v key="$1" 'index($0, key " ") == 1 { print $NF }' "$OUT/prom"; }
for class in loop hardlink plain; do
	check_eq "$class collisions" "$(jq -r ".exports[0].collisions.$class" "$OUT/json")" \
		"$(value "btrfs_ino_audit_collisions{path=\"$fex\",class=\"$class\"}")"
done
check_eq "safe" 0 "$(value "btrfs_ino_audit_safe{path=\"$fex\"}")"
check_eq "audited" 1 "$(value "btrfs_ino_audit_audited{path=\"$fex\"}")"
check_eq "audited, the missing path" 0 "$(value "btrfs_ino_audit_audited{path=\"$gone\"}")"
check_eq "entries" "$(jq -r '.exports[0].entries' "$OUT/json")" \
	"$(value "btrfs_ino_audit_entries{path=\"$fex\"}")"
check_eq "unreadable" "$(jq -r '.exports[0].unreadable' "$OUT/json")" \
	"$(value "btrfs_ino_audit_unreadable{path=\"$fex\"}")"
check_eq "device anomalies" "$(jq -r '.exports[0].device_anomalies' "$OUT/json")" \
	"$(value "btrfs_ino_audit_device_anomalies{path=\"$fex\"}")"
check_eq "exports errors" 0 "$(value btrfs_ino_audit_exports_errors)"
[[ -n $(value btrfs_ino_audit_duration_seconds) ]] || fail "no duration"
finish
