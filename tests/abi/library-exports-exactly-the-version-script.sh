#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The built libbtrfsino.so exports exactly the version script's symbols, each
# under its versioned node, and nothing else (no internal helper, no symbol
# of a static dependency); its SONAME is libbtrfsino.so.1.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${LIBRARY:?LIBRARY must name the built shared library}"
: "${SONAME:?SONAME must be the expected soname}"
for tool in nm readelf; do
	command -v "$tool" >/dev/null || skip_or_fail "needs $tool (binutils)"
done

script_symbols >"$TMP/script"
script_nodes >"$TMP/nodes"

# Defined dynamic symbols, as "name@@NODE"; each node itself is an absolute
# symbol of its own.
nm -D --defined-only -- "$LIBRARY" | awk 'NR == FNR { node[$1]; next }
	$3 != "" && !($3 in node) { print $3 }' "$TMP/nodes" - |
	sort >"$TMP/nm"
sed 's/@.*//' "$TMP/nm" | sort >"$TMP/exported"
check_same_list "the library's exports and the version script disagree" \
	"the library" "$TMP/exported" "the version script" "$TMP/script"

# Each export carries a node's version (default version, "@@").
grep -v -- "@@" "$TMP/nm" >"$TMP/unversioned" || true
sed -n 's/.*@@//p' "$TMP/nm" | grep -vxF -f "$TMP/nodes" >>"$TMP/unversioned" || true
[[ ! -s $TMP/unversioned ]] || fail "exported without a version of the script: $(tr '\n' ' ' <"$TMP/unversioned")"

soname=$(readelf -d -- "$LIBRARY" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[[ $soname == "$SONAME" ]] || fail "SONAME expected '$SONAME', got '$soname'"
printf '%s: ok (%d symbols, %s, %s)\n' "$TEST_NAME" "$(wc -l <"$TMP/exported")" "$(paste -sd' ' "$TMP/nodes")" "$soname"
