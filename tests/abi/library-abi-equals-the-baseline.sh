#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The ABI of the built library is exactly tests/abi/baseline.abi: abidiff
# (with --harmless, so that a new enumerator or function counts too) finds
# no change at all.  A deliberate change updates the baseline in the same
# commit, with tests/abi/update-baseline.sh BUILDDIR, so the diff of
# baseline.abi shows a reviewer what changed in the ABI.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${LIBRARY:?LIBRARY must name the built libbtrfsino.so.X.Y.Z}"
baseline=$(dirname "$0")/baseline.abi
[[ -s $baseline ]] || fail "no baseline $baseline (tests/abi/update-baseline.sh makes it)"
command -v abidiff >/dev/null || skip_or_fail "needs abidiff (Debian package abigail-tools)"

abi_dump "$LIBRARY" "$TMP/built.abi"
rc=0
abidiff --harmless --no-show-locs "$baseline" "$TMP/built.abi" >"$TMP/diff" || rc=$?
if [[ $rc != 0 ]]; then
	cat "$TMP/diff" >&2
	fail "the ABI differs from $baseline (abidiff exit status $rc); if that is" \
		"deliberate, run tests/abi/update-baseline.sh BUILDDIR and commit the result"
fi
printf '%s: ok\n' "$TEST_NAME"
