#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An exports line exportfs warns about ("PATH HOST (rw,...)": the blank
# gives the options to the world) makes the warnings go to stderr, never to
# stdout, which is pasted into files: the server-fstab block passes
# findmnt --verify.  The exports block's rewrite of that line ("HOST(...)
# *(rw,...)") keeps the world-export warning beside it as a comment, in the
# text and in the line --diff puts into the file.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
printf '%s\n' "# exports" "$FEX 127.0.0.1 (rw,no_subtree_check)" >"$EXPORTS"
world="no host name before the option list: exportfs warns and exports to everyone (*)"

for format in server-fstab exports; do
	suggest "block-$format" --exports "$EXPORTS" --format "$format" "$FEX"
	check_suggest_rc "block-$format" 0
	check_eq "$format: no warning on stdout" "" "$(grep '^exports warning' "$OUT/block-$format" || true)"
	grep -qF "exports warning: $EXPORTS:2:" "$OUT/block-$format.err" ||
		fail "$format: no warning on stderr: $(cat "$OUT/block-$format.err")"
done
# BLKID_FILE: probe the loop device afresh (suggest-lib.sh, apply_and_run).
BLKID_FILE=/dev/null findmnt --verify --tab-file "$OUT/block-server-fstab" >"$OUT/verify" 2>&1 ||
	fail "findmnt --verify rejects the server-fstab block: $(cat "$OUT/verify")"

# The comment right before the new line, whose clients are 127.0.0.1 and *.
beside=$(grep -B1 -F "$FEX 127.0.0.1(crossmnt) *(rw,no_subtree_check,crossmnt)" \
	"$OUT/block-exports" | head -n 1 || true)
check_eq "the warning beside the rewrite" "# exports warning: $EXPORTS:2:51: $world" "$beside"

suggest diff --exports "$EXPORTS" --fstab /dev/null --diff --format exports "$FEX"
check_suggest_rc diff 1
check_eq "--diff: no warning on stdout" "" "$(grep '^exports warning' "$OUT/diff" || true)"
check_eq "--diff: the warning goes into the file beside the line" 1 \
	"$(grep -cxF "+# exports warning: $EXPORTS:2:51: $world" "$OUT/diff")"
finish
