#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --diff: the "@@" header of each hunk is the one GNU diff -u writes
# between the exports file and the file as doing each "replace line(s)" of
# --format exports leaves it (apply-replacements.awk), when a first edit
# shrinks a 3-line continued entry to one line and a second edit lies more
# than 7 lines further down: the second hunk's +start moves up by the 2
# lines the first one removed.  (GNU patch applies a wrong +start without a
# word, so the patch-based tests cannot tell.)
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
{
	printf '%s\n' "# before" "$FEX \\" "  127.0.0.1(rw,no_subtree_check) \\" "  10.0.0.0/8(ro)"
	for n in 1 2 3 4 5 6 7 8 9 10; do
		printf '%s\n' "# unrelated line $n"
	done
	printf '%s\n' "$FEX 10.1.0.0/16(rw)" "# after 1" "# after 2"
} >"$EXPORTS"

suggest exports-block --exports "$EXPORTS" --format exports "$FEX"
check_suggest_rc exports-block 0
check_eq "the block replaces lines 2-4 and line 15" \
	"# replace lines 2-4 of $EXPORTS with|# replace line 15 of $EXPORTS with" \
	"$(grep '^# replace' "$OUT/exports-block" | paste -sd '|')"
apply_replacements "$OUT/exports-block" "$EXPORTS" >"$OUT/exports.replaced"
diff -u -- "$EXPORTS" "$OUT/exports.replaced" >"$OUT/gnu.diff" && fail "GNU diff finds no difference"
grep '^@@' "$OUT/gnu.diff" >"$OUT/gnu.headers" || true
check_eq "GNU diff makes two hunks" 2 "$(wc -l <"$OUT/gnu.headers")"

suggest diff --exports "$EXPORTS" --diff --format exports "$FEX"
check_suggest_rc diff 1
grep '^@@' "$OUT/diff" >"$OUT/diff.headers" || true
check_files_eq "the hunk headers of suggest --diff and GNU diff -u" "$OUT/gnu.headers" "$OUT/diff.headers"
finish
