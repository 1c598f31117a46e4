#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Exit status: 0 for a tree without collisions (a plain directory on the
# host's filesystem, hard links included), 1 on the classic layout and for
# an exports file exportfs stops reading (a finding, named file:line:column;
# the line before it is audited as exported), 2 for a path that does not
# exist.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

write_exports "$OUT/empty-exports"

plain=$WORK/plain
mkdir -p -- "$plain/a/b"
echo one >"$plain/a/one"
ln -- "$plain/a/one" "$plain/a/b/one-again"
echo two >"$plain/two"
audit plain --json --exports "$OUT/empty-exports" "$plain"
check_audit_rc plain 0
check_eq "plain dir collisions" "0 0 0" "$(audit_counts plain)"
check_eq "plain dir not exported" false "$(jq -r '.exports[0].exported' "$OUT/plain")"
check_eq "plain dir verdict" true "$(jq -r '.exports[0].verdict.safe' "$OUT/plain")"

audit classic --verbose --exports "$OUT/empty-exports" "$MNT/fex"
check_audit_rc classic 1
grep -q 'not exported: audited as if exported with default options' "$OUT/classic" ||
	fail "text report does not say the path is not exported"

audit missing --exports "$OUT/empty-exports" "$WORK/does-not-exist"
check_audit_rc missing 2
grep -qF -- "$WORK/does-not-exist" "$OUT/missing.err" ||
	fail "no message naming the missing path"

# Line 2 has an empty option: the column is that of its second comma.
write_exports "$OUT/bad-exports" "$MNT/fex *(rw)" "$MNT *(rw,,sync)"
column=$(awk 'NR == 2 { print index($0, ",,") + 1 }' "$OUT/bad-exports")
audit malformed --verbose --exports "$OUT/bad-exports" "$MNT/fex"
check_audit_rc malformed 1
grep -qF -- "$OUT/bad-exports:2:$column: " "$OUT/malformed.err" ||
	fail "message lacks $OUT/bad-exports:2:$column: ($(cat "$OUT/malformed.err"))"
grep -qF -- "exports error: $OUT/bad-exports:2:$column: " "$OUT/malformed" ||
	fail "the report does not name the error"
grep -qF -- "exported to *(rw) in $OUT/bad-exports:1" "$OUT/malformed" ||
	fail "the line before the error is not audited as exported"
finish
