#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Auditing a directory that is not the root of its subvolume (fex/docs, in
# subvolume fex) gives the details of the subvolume holding it, as
# btrfs subvolume show gives them for that subvolume, as root and as an
# unprivileged user: no "details unknown" (issue 12).
# shellcheck source=tests/root-audit/audit-lib.sh
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

docs=$MNT/fex/docs
show=$(btrfs subvolume show -- "$MNT/fex")
id=$(btrfs inspect-internal rootid -- "$docs")
parent=$(awk -F'\t+' '/^[[:space:]]*Parent ID:/ { print $NF }' <<<"$show")
uuid=$(awk '/^[[:space:]]*UUID:/ { print $NF; exit }' <<<"$show")
expected="$id null $parent false $uuid null"

# report NAME: the first subvolume of the JSON, and whether text says unknown.
report() {
	jq -r '.exports[0].subvolumes[0] |
		"\(.id) \(.path) \(.parent_id) \(.read_only) \(.uuid) \(.info_error)"' \
		"$OUT/$1"
}

audit json --json "$docs"
check_audit_rc json 0
check_eq "subvolume of fex/docs as root (id path parent_id read_only uuid info_error)" \
	"$expected" "$(report json)"
audit text "$docs"
check_eq "text as root says nothing is unknown" "" "$(grep 'details unknown' "$OUT/text" || true)"

if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod go+rx -- "$WORK" "$OUT"
	AUDIT_RC=0
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
		"$BTRFS_INO" audit --json "$docs" >"$OUT/nobody" 2>"$OUT/nobody.err" ||
		AUDIT_RC=$?
	check_audit_rc nobody 0
	check_eq "subvolume of fex/docs as nobody" "$expected" "$(report nobody)"
else
	fail "cannot run as nobody (no user nobody or no setpriv)"
fi
finish
