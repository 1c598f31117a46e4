#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# libbtrfsino-exec.so exports exactly the stat family glibc exports with default
# versions, unversioned (so program references such as stat@GLIBC_2.33 bind to
# it), as lib/preload/exec.sym lists them, and has no constructor of its own.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${PRELOAD:?PRELOAD must name the built libbtrfsino-exec.so}"
: "${PRELOAD_SYMFILE:?PRELOAD_SYMFILE must name lib/preload/exec.sym}"
command -v nm >/dev/null && command -v readelf >/dev/null ||
	skip_or_fail "needs nm and readelf (binutils)"

SYMFILE=$PRELOAD_SYMFILE script_symbols >"$TMP/script"
nm -D --defined-only -- "$PRELOAD" | awk '$3 != "" { print $3 }' | sort >"$TMP/nm"
check_same_list "the preload's exports and exec.sym disagree" \
	"the preload" "$TMP/nm" "exec.sym" "$TMP/script"
if grep -q @ "$TMP/nm"; then
	fail "versioned exports (a program's stat@GLIBC_x would not bind to them): $(grep @ "$TMP/nm" | tr '\n' ' ')"
fi

# The stat family as the C library the tests run with exports it to new links
# ("@@": default versions; __xstat & co are still among them in glibc 2.36;
# GLIBC_PRIVATE, as __fstat64's, is for glibc's own libraries only).
libc=$(awk '$6 ~ /\/libc\.so\.6$/ { print $6; exit }' /proc/self/maps)
[[ -n $libc ]] || skip_or_fail "no libc.so.6 in /proc/self/maps (not glibc?)"
nm -D --defined-only -- "$libc" |
	awk '{ split($3, v, "@@") } v[2] != "" && v[2] != "GLIBC_PRIVATE" && v[1] ~ /^(__)?(f|l)?x?stat(at)?(64)?$|^statx$/ { print v[1] }' |
	sort -u >"$TMP/libc"
check_same_list "the preload does not interpose exactly glibc's stat family" \
	"the preload" "$TMP/nm" "$libc" "$TMP/libc"

# Constructors: no more .init_array entries than an empty shared object gets from
# the same compiler (crtstuff's frame_dummy).
: "${CC:=cc}"
echo 'int bino_abi_empty;' >"$TMP/empty.c"
# shellcheck disable=SC2086 # CC may be a command with arguments
$CC -shared -fPIC -o "$TMP/empty.so" "$TMP/empty.c"
# init_size OBJECT: the size of its .init_array in bytes (0 without one).
init_size() {
	local hex
	hex=$(readelf -SW -- "$1" |
		sed -nE 's/^ *\[ *[0-9]+\] +\.init_array +[A-Z_]+ +[0-9a-f]+ +[0-9a-f]+ +([0-9a-f]+) .*/\1/p')
	echo $((16#${hex:-0}))
}
[[ $(init_size "$TMP/empty.so") -gt 0 ]] || skip_or_fail "the compiler gives an empty object no .init_array to compare with"
[[ $(init_size "$PRELOAD") -le $(init_size "$TMP/empty.so") ]] ||
	fail ".init_array of $(init_size "$PRELOAD") bytes, an empty object has $(init_size "$TMP/empty.so"): a constructor"
printf '%s: ok (%d symbols)\n' "$TEST_NAME" "$(wc -l <"$TMP/nm")"
