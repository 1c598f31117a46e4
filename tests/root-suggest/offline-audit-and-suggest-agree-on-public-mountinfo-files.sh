#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Offline, audit --json and suggest --json name the same filesystem for the
# export: the mount of the --mountinfo file whose mount point is the longest
# prefix of the path (computed here with awk), for util-linux's and
# systemd's public mountinfo fixtures and ours.  With util-linux's table
# that has no "/", both refuse the path with the same error (issue 12).
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
DATA=$SRCDIR/tests/data/mountinfo

# holder FILE PATH: "ID MOUNTPOINT FSTYPE" of the longest mount point prefix
# of PATH in FILE (the later of two on one point), or "none".
holder() {
	awk -v p="$2" '
		{ t = $5; gsub(/\\040/, " ", t) }
		t == "/" || index(p "/", t "/") == 1 {
			if (length(t) >= best) {
				best = length(t)
				sep = 7
				while ($sep != "-") sep++
				found = $1 " " t " " $(sep + 1)
			}
		}
		END { print (found == "" ? "none" : found) }' "$1"
}

n=0
for file in "$DATA"/btrfs-subvolumes-overlay-nfs4.mountinfo "$DATA"/util-linux-*.mountinfo \
	"$DATA"/systemd-rhbug-1554943.mountinfo; do
	name=$(basename -- "$file" .mountinfo)
	expected=$(holder "$file" "$FEX")
	AUDIT_RC=0
	"$BTRFS_INO" audit -q --json --exports "$EXPORTS" --mountinfo "$file" "$FEX" \
		>"$OUT/audit-$name" 2>"$OUT/audit-$name.err" || AUDIT_RC=$?
	suggest "suggest-$name" --json --exports "$EXPORTS" --mountinfo "$file" "$FEX"
	fs='.exports[0] | if .error then "none" else .filesystem | "\(.mount_id) \(.mountpoint) \(.fstype)" end'
	check_eq "$name: audit's filesystem" "$expected" "$(jq -r "$fs" "$OUT/audit-$name")"
	check_eq "$name: suggest's filesystem" "$expected" "$(jq -r "$fs" "$OUT/suggest-$name")"
	err='.exports[0].error | "\(.step)|\(.errno)|\(.message)"'
	check_eq "$name: the same error" "$(jq -r "$err" "$OUT/audit-$name")" \
		"$(jq -r "$err" "$OUT/suggest-$name")"
	if [[ $expected == none ]]; then
		check_eq "$name: audit exit status" 2 "$AUDIT_RC"
		check_suggest_rc "suggest-$name" 2
	fi
	n=$((n + 1))
done
check_eq "fixtures compared" 7 "$n"
grep -q '^none$' <(holder "$DATA/util-linux-findmnt-mountinfo-nonroot.mountinfo" "$FEX") ||
	fail "the nonroot fixture holds $FEX: the error case is not tested"
finish
