#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Under `btrfs-ino exec`, the dynamic linker binds every stat-family function find imports to libbtrfsino-exec.so, not libc.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO_EXEC_PRELOAD:?BTRFS_INO_EXEC_PRELOAD must name the built preload library}"

find_bin=$(command -v find)
# What find imports, as nm reads its dynamic symbol table: "stat@GLIBC_2.33" and so on.
nm -D --undefined-only -- "$find_bin" |
	awk '{ split($2, v, "@") } v[1] ~ /^(__)?(f|l)?x?stat(at|x)?(64)?$/ { print v[1] }' |
	sort -u >"$TMP/imported"
[[ -s $TMP/imported ]] || fail "find imports no stat function: $(nm -D --undefined-only -- "$find_bin" | head)"

# The loader's own account (ld.so(8) LD_DEBUG), every symbol resolved at start.
LD_BIND_NOW=1 LD_DEBUG=bindings LD_DEBUG_OUTPUT=$TMP/ld run exec -- "$find_bin" / -maxdepth 0
check_eq "exit status" 0 "$RC"
# Only find's own bindings (btrfs-ino's and the libraries' are in other files or lines).
cat "$TMP"/ld.* | awk -v lib="$BTRFS_INO_EXEC_PRELOAD" '
	$2 == "binding" && $3 == "file" && ($4 == "find" || $4 ~ /\/find$/) && $7 == lib {
		sym = $11; gsub(/[`'"'"']/, "", sym); print sym }' | sort -u >"$TMP/bound"
printf "%s\n" "find imports and binds to the preload: $(tr "\n" " " <"$TMP/bound")"
if ! cmp -s "$TMP/imported" "$TMP/bound"; then
	printf 'FAIL: imported by find:\n%s\nbound to the preload:\n%s\n' \
		"$(cat "$TMP/imported")" "$(cat "$TMP/bound")" >&2
	exit 1
fi
