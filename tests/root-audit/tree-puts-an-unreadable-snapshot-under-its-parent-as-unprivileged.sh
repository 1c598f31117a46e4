#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# As an unprivileged user, a snapshot whose root directory is 0700 (root's)
# cannot be opened, so its details are unknown; it is still drawn under the
# subvolume whose directory holds it (its Parent ID in btrfs subvolume show),
# not at the top of the tree, and the JSON still gives that parent_id
# (issue 12).
# shellcheck source=tests/root-audit/audit-lib.sh
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture
if ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null; then
	fail "cannot run as nobody (no user nobody or no setpriv)"
	finish
fi

fex=$MNT/fex
s2=$fex/spool/.snapshot/s2
chmod 0700 -- "$s2"
chmod go+rx -- "$WORK" "$OUT"
id=$(btrfs inspect-internal rootid -- "$s2")
parent=$(btrfs subvolume show -- "$s2" |
	awk -F'\t+' '/^[[:space:]]*Parent ID:/ { print $NF }')

as_nobody() {
	local name=$1
	shift
	AUDIT_RC=0
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
		"$BTRFS_INO" audit "$@" >"$OUT/$name" 2>"$OUT/$name.err" || AUDIT_RC=$?
}

as_nobody text --pairs -o "$TREE_COLUMNS" "$fex"
check_audit_rc text 1
grep -q "subvolume $id, details unknown" "$OUT/text" ||
	fail "the fixture does not hide snapshot $id's details from nobody"
check_eq "tree parent of snapshot $id" "$id $parent" \
	"$(tree_subvols "$OUT/text" | awk -v id="$id" '$1 == id { print $1, $2 }')"

as_nobody json --json "$fex"
check_audit_rc json 1
check_eq "JSON parent_id of snapshot $id" "$parent" \
	"$(jq -r --argjson id "$id" '.exports[0].subvolumes[] | select(.id == $id) | .parent_id' "$OUT/json")"
finish
