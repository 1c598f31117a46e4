#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino(1) and libbtrfsino(3) format with groff and with man -l without a
# single warning, and their title lines carry the project's version.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
: "${EXPECTED_VERSION:?EXPECTED_VERSION must be the project version}"
command -v groff >/dev/null || skip_or_fail "needs groff (groff-base)"
command -v man >/dev/null || skip_or_fail "needs man (man-db)"

TMP=$(mktemp -d /tmp/bino-man-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
failures=0
for page in "$SRCDIR/man/btrfs-ino.1" "$SRCDIR/man/libbtrfsino.3"; do
	name=$(basename "$page")
	# -ww: every warning; tbl for the EXIT STATUS table.
	if ! groff -t -man -Tutf8 -ww -z "$page" 2>"$TMP/groff.err" || [[ -s $TMP/groff.err ]]; then
		printf '%s: FAIL: groff warns about %s:\n' "$TEST_NAME" "$name" >&2
		head -20 "$TMP/groff.err" >&2
		failures=$((failures + 1))
	fi
	if ! MANWIDTH=80 man --warnings -l "$page" >"$TMP/man.out" 2>"$TMP/man.err" ||
		[[ -s $TMP/man.err ]]; then
		printf '%s: FAIL: man -l warns about %s:\n' "$TEST_NAME" "$name" >&2
		head -20 "$TMP/man.err" >&2
		failures=$((failures + 1))
	fi
	[[ -s $TMP/man.out ]] || { echo "man -l $name printed nothing" >&2; failures=$((failures + 1)); }
	th=$(grep -m1 '^\.TH ' "$page")
	[[ $th == *" $EXPECTED_VERSION\""* ]] ||
		{ printf '%s: FAIL: %s: %s does not name version %s\n' "$TEST_NAME" \
			"$name" "$th" "$EXPECTED_VERSION" >&2; failures=$((failures + 1)); }
done
((failures == 0)) || fail "$failures problem(s)"
printf '%s: ok\n' "$TEST_NAME"
