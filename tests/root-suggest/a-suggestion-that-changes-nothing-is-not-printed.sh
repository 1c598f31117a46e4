#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An export whose line has crossmnt already gets no "replace line N" (it
# was the identical line): the exports block says there is nothing to
# change there, and --diff, with the fstab lines applied too, prints
# nothing and exits 0, even with an exports warning elsewhere in the file
# (which goes to stderr): patch never sees a stray line ("Only garbage").
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check,crossmnt)" \
	"$MNT/top\\040dir 127.0.0.1 (ro)" >"$EXPORTS"

suggest block --exports "$EXPORTS" --format exports "$FEX"
check_suggest_rc block 0
check_eq "no replacement" "" "$(grep '^# replace' "$OUT/block" || true)"
check_eq "no exports line" "" "$(config_lines "$OUT/block")"
grep -qxF "# (every line that exports it has crossmnt already)" "$OUT/block" ||
	fail "the block does not say the lines have crossmnt"

FSTAB=$OUT/fstab
suggest fstab-block --exports "$EXPORTS" --format server-fstab "$FEX"
config_lines "$OUT/fstab-block" >"$FSTAB"
[[ -s $FSTAB ]] || fail "no server fstab lines to apply"
suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff "$FEX"
check_suggest_rc diff 0
check_eq "--diff with nothing left: stdout" "" "$(cat "$OUT/diff")"
grep -q "^exports warning: $EXPORTS:2:" "$OUT/diff.err" ||
	fail "the warning is not on stderr: $(cat "$OUT/diff.err")"
finish
