#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --diff: "patch -d / -p0" applied to the exports file and the fstab
# as they are gives exactly what the blocks say: the exports file as doing
# each "replace line(s)" of --format exports leaves it (a continued entry
# replaced whole, the path's second line changed too, other lines kept),
# the fstab with the --format server-fstab lines appended (also to a last
# line without a newline).  --diff --format exports and --format
# server-fstab give one file's diff each, which "patch FILE" applies.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v patch >/dev/null || skip_or_fail "needs patch"
setup_export
printf '%s\n' "# before" "$FEX \\" "  127.0.0.1(rw,no_subtree_check) \\" "  10.0.0.0/8(ro)" \
	"$MNT/top\\040dir 127.0.0.1(ro)" "$FEX 10.1.0.0/16(rw)" "# after" >"$EXPORTS"
FSTAB=$OUT/fstab
printf '%s\n%s' "# server fstab" "UUID=0 / ext4 defaults 0 1" >"$FSTAB"
cp -- "$EXPORTS" "$OUT/exports.orig"
cp -- "$FSTAB" "$OUT/fstab.orig"

suggest exports-block --exports "$EXPORTS" --format exports "$FEX"
check_suggest_rc exports-block 0
check_eq "the block replaces lines 2-4 and line 6" \
	"# replace lines 2-4 of $EXPORTS with|# replace line 6 of $EXPORTS with" \
	"$(grep '^# replace' "$OUT/exports-block" | paste -sd '|')"
apply_replacements "$OUT/exports-block" "$EXPORTS" >"$OUT/exports.expected"
suggest fstab-block --exports "$EXPORTS" --format server-fstab "$FEX"
check_suggest_rc fstab-block 0
{ cat -- "$FSTAB"; echo; config_lines "$OUT/fstab-block"; } >"$OUT/fstab.expected"

suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff "$FEX"
check_suggest_rc diff 1
check_eq "the diff names both files relative to /" "${EXPORTS#/} ${FSTAB#/}" \
	"$(sed -n 's/^+++ //p' "$OUT/diff" | paste -sd ' ')"
patch -s -d / -p0 <"$OUT/diff" >"$OUT/patch.log" 2>&1 || fail "patch -d / -p0: $(cat "$OUT/patch.log")"
check_files_eq "the exports file patched" "$OUT/exports.expected" "$EXPORTS"
check_files_eq "the fstab patched" "$OUT/fstab.expected" "$FSTAB"

# One file each, applied with patch FILE, to fresh copies.
for pair in exports:exports server-fstab:fstab; do
	format=${pair%%:*} file=$OUT/${pair#*:}
	cp -- "$file.orig" "$file"
	suggest "diff-$format" --exports "$EXPORTS" --fstab "$FSTAB" --diff --format "$format" "$FEX"
	check_suggest_rc "diff-$format" 1
	check_eq "--format $format: one file" 1 "$(grep -c '^+++ ' "$OUT/diff-$format")"
	patch -s "$file" <"$OUT/diff-$format" >"$OUT/patch-$format.log" 2>&1 ||
		fail "patch $file: $(cat "$OUT/patch-$format.log")"
	check_files_eq "--format $format patched with patch FILE" "$file.expected" "$file"
done
cp -- "$OUT/exports.orig" "$EXPORTS"

# Once applied, the fstab lines are not suggested again.
cp -- "$OUT/fstab.expected" "$FSTAB"
suggest again --exports "$EXPORTS" --fstab "$FSTAB" --diff --format server-fstab "$FEX"
check_eq "lines already in the fstab are not appended again" "" "$(cat "$OUT/again")"
finish
