#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The tree's branches: with --ascii the whole report is ASCII even in a UTF-8
# locale; in a UTF-8 locale without it they are box-drawing characters, the
# same tree otherwise ("├─" for "|-", "└─" for "`-", "│" for "|"); in the C
# locale the report is what --ascii prints, byte for byte.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture
locale -a 2>/dev/null | grep -qix 'c\.utf-\?8' || skip_or_fail "needs the C.UTF-8 locale"

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
LC_ALL=C.UTF-8 audit ascii --ascii --exports "$OUT/exports" "$fex"
check_audit_rc ascii 1
check_eq "bytes outside ASCII with --ascii" 0 "$(LC_ALL=C tr -d '\000-\177' <"$OUT/ascii" | wc -c)"
grep -q '^`-' "$OUT/ascii" || fail "--ascii tree has no '\`-' branch"

LC_ALL=C.UTF-8 audit utf8 --exports "$OUT/exports" "$fex"
check_audit_rc utf8 1
grep -q '├─' "$OUT/utf8" || fail "UTF-8 tree has no '├─' branch"
sed -e 's/├─/|-/g' -e 's/└─/`-/g' -e 's/│/|/g' "$OUT/utf8" >"$OUT/utf8-as-ascii"
check_files_eq "UTF-8 tree with ASCII branches" "$OUT/ascii" "$OUT/utf8-as-ascii"

LC_ALL=C audit c --exports "$OUT/exports" "$fex"
check_audit_rc c 1
check_files_eq "C locale report" "$OUT/ascii" "$OUT/c"
finish
