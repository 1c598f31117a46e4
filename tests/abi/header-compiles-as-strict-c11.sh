#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# include/btrfsino.h is self-contained ISO C11: a program that includes only
# it compiles with -std=c11 -pedantic and every warning an error, links
# against the built library, and runs.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${CC:?CC must name the C compiler}"
: "${LIBDIR:?LIBDIR must name the directory of the built library}"
: "${EXPECTED_VERSION:?EXPECTED_VERSION must be the project version}"
command -v "${CC%% *}" >/dev/null || fail "no C compiler '$CC'"

src=$(dirname "$0")/use_header.c
# shellcheck disable=SC2086 # CC may be "ccache cc"
# shellcheck disable=SC2086 # SANITIZE_FLAGS holds several words
$CC -std=c11 -Wall -Wextra -pedantic -Werror -Wstrict-prototypes \
	-Wmissing-prototypes -Wshadow -Wconversion -Wsign-conversion \
	-I "$(dirname "$HEADER")" -o "$TMP/use_header" "$src" \
	-L "$LIBDIR" -Wl,-rpath,"$LIBDIR" -lbtrfsino ${SANITIZE_FLAGS:-} ||
	fail "the header does not compile cleanly as C11"
# The version, a message for an error code, and key equality: what the
# program prints is decided here, not by the library.
out=$("$TMP/use_header")
[[ $out == "$EXPECTED_VERSION 1 1 0" ]] ||
	fail "the program printed '$out', expected '$EXPECTED_VERSION 1 1 0'"
printf '%s: ok (%s)\n' "$TEST_NAME" "$out"
