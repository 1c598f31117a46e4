#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every value of enum bino_error is used by some library source other than
# the message table (lib/base/error.c): an error the library never returns is a
# promise to callers that nothing keeps (libbtrfsutil's rule; issue 17).
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${LIBSRC:?LIBSRC must name the lib/ source directory}"

# The enumerators, from the enum's opening line to its closing brace.
sed -n '/^enum bino_error {/,/^};/p' "$HEADER" | sed 's|/\*.*\*/||g' |
	grep -oE '\bBINO_(OK|ERROR_[A-Z0-9_]+)\b' | sort -u >"$TMP/values"
[[ -s $TMP/values ]] || fail "found no enum bino_error in $HEADER"

unused=()
while read -r value; do
	[[ $value == BINO_OK ]] && continue
	if ! grep -lw -- "$value" "$LIBSRC"/*/*.c | grep -qv '/error\.c$'; then
		unused+=("$value")
	fi
done <"$TMP/values"
((${#unused[@]} == 0)) || fail "never used by the library: ${unused[*]}"
printf '%s: ok (%d values)\n' "$TEST_NAME" "$(wc -l <"$TMP/values")"
