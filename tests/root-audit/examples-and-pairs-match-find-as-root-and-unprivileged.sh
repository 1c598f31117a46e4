#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The examples (first ten per class, in walk order) and subvolume pairs of
# an audit of fex are exactly those computed from find's listing
# (expected-examples.awk), with hard links across subvolumes, snapshots and
# nested subvolumes (loops), and a hard link made just before the audit
# without a sync.  As root the audit reads link counts from the subvolume
# trees; as an unprivileged user it stats: both must give the same report.
# shellcheck source=tests/root-audit/audit-lib.sh
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
# Links the next transaction commit has not written yet.
ln -- "$fex/spool/data/original" "$fex/spool/data/fresh-link"
ln -- "$fex/hello.txt" "$fex/docs/fresh-hello"

find_listing "$fex" "$OUT/listing"
# st_dev -> subvolume id, from btrfs-progs on a directory of each device.
awk -F'\t' '$3 == "d" && $2 != 2 && !($1 in seen) { seen[$1]; print $1 "\t" $5 }' \
	"$OUT/listing" | while IFS=$'\t' read -r dev dir; do
	printf '%s\t%s\n' "$dev" "$(btrfs inspect-internal rootid -- "$dir")"
done >"$OUT/subvols"
awk -v export="$fex" -f "$AUDIT_TESTS_DIR/expected-examples.awk" \
	"$OUT/subvols" "$OUT/listing" >"$OUT/expected"
grep -q $'^example\thardlink\t' "$OUT/expected" ||
	fail "the fixture gives no hardlink example, which proves little"
grep -q $'^example\tloop\t' "$OUT/expected" ||
	fail "the fixture gives no loop example, which proves little"

# report NAME: the examples and pairs of $OUT/NAME in the awk's format.
report() {
	jq -r '.exports[0] |
		(.examples | ("loop", "hardlink", "plain") as $c | .[$c][] |
			["example", $c, .a.path, .a.subvolid, .b.path, .b.subvolid]),
		(.subvolume_pairs[] | ["pair", .a, .b, .loop, .hardlink, .plain])
		| map(tostring) | @tsv' "$OUT/$1"
}

audit root --json --exports "$OUT/exports" "$fex"
check_audit_rc root 1
report root >"$OUT/actual-root"
check_files_eq "examples and pairs as root" "$OUT/expected" "$OUT/actual-root"

# The same as nobody, who may not read subvolume trees.
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod go+rx -- "$WORK" "$OUT"
	chmod go+r -- "$OUT/exports"
	AUDIT_RC=0
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups -- \
		"$BTRFS_INO" audit --json --exports "$OUT/exports" "$fex" \
		>"$OUT/nobody" 2>"$OUT/nobody.err" || AUDIT_RC=$?
	check_audit_rc nobody 1
	report nobody >"$OUT/actual-nobody"
	check_files_eq "examples and pairs as nobody" "$OUT/expected" \
		"$OUT/actual-nobody"
	check_eq "collisions as nobody" "$(audit_counts root)" \
		"$(audit_counts nobody)"
else
	fail "cannot run as nobody (no user nobody or no setpriv)"
fi
finish
