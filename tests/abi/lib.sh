# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the abi suite: the three lists that must agree, and reporting.
# Sourced after `set -euo pipefail`.  meson passes HEADER (include/btrfsino.h),
# SYMFILE (lib/libbtrfsino.sym) and LIBRARY (the built libbtrfsino.so.X.Y.Z).
# shellcheck shell=bash
export LC_ALL=C
: "${HEADER:?HEADER must name include/btrfsino.h}"
: "${SYMFILE:?SYMFILE must name lib/libbtrfsino.sym}"

TMP=$(mktemp -d /tmp/bino-abi-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
# shellcheck source=tests/lib/common.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/../lib/common.sh"

# check_same_list WHAT LEFT_NAME LEFT_FILE RIGHT_NAME RIGHT_FILE: two sorted
# lists are equal; otherwise say which names only one side has.
check_same_list() {
	local what=$1 lname=$2 left=$3 rname=$4 right=$5 only
	if ! cmp -s -- "$left" "$right"; then
		printf '%s: FAIL: %s\n' "$TEST_NAME" "$what" >&2
		only=$(comm -23 -- "$left" "$right")
		[[ -z $only ]] || printf '  only in %s:\n%s\n' "$lname" "$(sed 's/^/    /' <<<"$only")" >&2
		only=$(comm -13 -- "$left" "$right")
		[[ -z $only ]] || printf '  only in %s:\n%s\n' "$rname" "$(sed 's/^/    /' <<<"$only")" >&2
		exit 1
	fi
}

# header_functions: the functions the public header declares, one per line,
# sorted, as the compiler sees them (gcc -aux-info lists every prototype with
# the file it comes from), not as a regular expression guesses them.
header_functions() {
	local gcc=${GCC:-gcc}
	command -v "$gcc" >/dev/null || skip_or_fail "needs gcc for -aux-info"
	"$gcc" -std=gnu11 -fsyntax-only -aux-info "$TMP/aux" -x c "$HEADER"
	grep -F -- "/* $HEADER:" "$TMP/aux" |
		sed -E 's|^/\*[^*]*\*/ ||; s/^([^(]*[ *])?([A-Za-z_][A-Za-z0-9_]*) \(.*/\2/' |
		sort
}

# script_nodes: the version nodes the script defines ("NAME {").
script_nodes() {
	sed -nE 's/^[[:space:]]*([A-Za-z_][A-Za-z0-9_.]*)[[:space:]]*\{.*/\1/p' "$SYMFILE"
}

# script_symbols: the global symbols of the version script, sorted.  Every
# line between "global:" and "local:" is one "name;".
script_symbols() {
	sed -e 's|/\*.*\*/||g' -e 's|#.*||' "$SYMFILE" | awk '
		/^[[:space:]]*global:/ { in_global = 1; next }
		/^[[:space:]]*local:/ { in_global = 0; next }
		/\}/ { in_global = 0; next }
		in_global && NF { sub(/;[[:space:]]*$/, "", $1); print $1 }
	' | sort
}

# abi_dump LIBRARY OUT: the ABI of the built library as abigail XML, limited
# to what the public header declares, without line numbers or build paths
# (so doc comments and the build directory do not count as changes).  The
# baseline (tests/abi/baseline.abi) and the test make it the same way.
abi_dump() {
	command -v abidw >/dev/null || skip_or_fail "needs abidw (Debian package abigail-tools)"
	abidw --no-show-locs --no-corpus-path --no-comp-dir-path \
		--headers-dir "$(dirname "$HEADER")" --drop-private-types \
		--out-file "$2" "$1"
}
