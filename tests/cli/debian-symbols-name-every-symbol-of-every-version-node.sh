#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# debian/libbtrfsino1.symbols lists exactly the symbols of
# lib/libbtrfsino.sym, each as NAME@NODE with the release that brought its
# node (LIBBTRFSINO_X.Y: X.Y.0), and the node's own version symbol; so a
# symbol added to the version script without its symbols line fails here.
# Then dpkg-gensymbols, checking the built library against the file at its
# strictest (-c4), reports nothing: no new, no missing symbol, no warning.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
: "${SRCDIR:?}" "${LIBRARY:?}"
symbols=$SRCDIR/debian/libbtrfsino1.symbols

# The version script's "NODE { global: name; ... }" as "name@NODE X.Y.0".
awk '/^LIBBTRFSINO_[0-9]+\.[0-9]+ *\{/ { node = $1; split(substr(node, 13), v, ".")
		printf "%s@%s %s.%s.0\n", node, node, v[1], v[2]; next }
	node && /^\t[a-z_0-9]+;$/ { sub(/;$/, "", $1)
		printf "%s@%s %s.%s.0\n", $1, node, v[1], v[2] }
	/^}/ { node = "" }' "$SRCDIR/lib/libbtrfsino.sym" | sort >"$TMP/want"
[[ -s $TMP/want ]] || fail "found no version node in lib/libbtrfsino.sym"
sed -n 's/^ //p' "$symbols" | sort >"$TMP/have"
check_files_eq "debian/libbtrfsino1.symbols (+) against lib/libbtrfsino.sym (-)" \
	"$TMP/want" "$TMP/have"

command -v dpkg-gensymbols >/dev/null || skip_or_fail "needs dpkg-gensymbols (dpkg-dev)"
mkdir -p "$TMP/src/debian"
cp "$SRCDIR/debian/control" "$SRCDIR/debian/changelog" "$TMP/src/debian/"
version=$(cd "$TMP/src" && dpkg-parsechangelog -S Version)
(cd "$TMP/src" && dpkg-gensymbols -plibbtrfsino1 -P"$TMP/pkg" -v"$version" \
	-e"$LIBRARY" -I"$symbols" -O"$TMP/out.symbols" -c4) >"$TMP/gensymbols" 2>&1 ||
	fail "dpkg-gensymbols -c4: $(cat "$TMP/gensymbols")"
check_eq "dpkg-gensymbols' output" "" "$(cat "$TMP/gensymbols")"
