#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# libbtrfsino(3) names every function include/btrfsino.h declares (and the
# progress callback's type): a new API function cannot ship undocumented.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${MANPAGE:?MANPAGE must name man/libbtrfsino.3}"

header_functions >"$TMP/header"
[[ -s $TMP/header ]] || fail "found no function in $HEADER"
echo bino_audit_progress_fn >>"$TMP/header"
missing=$(while read -r name; do
	grep -qE "(^|[^a-z0-9_])$name([^a-z0-9_]|\$)" "$MANPAGE" || echo "$name"
done <"$TMP/header")
[[ -z $missing ]] || fail "not named in $(basename -- "$MANPAGE"): $(paste -sd' ' <<<"$missing")"
printf '%s: ok (%d names)\n' "$TEST_NAME" "$(wc -l <"$TMP/header")"
