#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# include/btrfsino.h works from C++11: it compiles with -pedantic -Werror,
# and the calls link against the built library, which only happens when the
# declarations have C linkage (extern "C"), then run.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${LIBDIR:?LIBDIR must name the directory of the built library}"
: "${EXPECTED_VERSION:?EXPECTED_VERSION must be the project version}"
cxx=
for c in ${CXX:-} c++ g++ clang++; do
	if command -v "$c" >/dev/null; then
		cxx=$c
		break
	fi
done
[[ -n $cxx ]] || skip_or_fail "needs a C++ compiler (c++, g++ or clang++)"

src=$(dirname "$0")/use_header.cc
# shellcheck disable=SC2086 # SANITIZE_FLAGS holds several words
"$cxx" -std=c++11 -Wall -Wextra -pedantic -Werror -x c++ \
	-I "$(dirname "$HEADER")" -o "$TMP/use_header" "$src" \
	-L "$LIBDIR" -Wl,-rpath,"$LIBDIR" -lbtrfsino ${SANITIZE_FLAGS:-} ||
	fail "the header does not compile and link cleanly as C++11 with $cxx"
out=$("$TMP/use_header")
[[ $out == "$EXPECTED_VERSION 1 1 0" ]] ||
	fail "the program printed '$out', expected '$EXPECTED_VERSION 1 1 0'"
printf '%s: ok (%s, %s)\n' "$TEST_NAME" "$cxx" "$out"
