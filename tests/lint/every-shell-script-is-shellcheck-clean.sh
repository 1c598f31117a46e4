#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every shell script of the project (the tests, their libraries, the CI and
# run scripts, the bash completion) has no shellcheck finding at warning
# level or above, so the tests stay a readable specification (issue 27).
# It runs from the source root, where the scripts' source directives name
# their libraries from.
set -euo pipefail
export LC_ALL=C
# shellcheck source=tests/lib/common.sh
source "$(dirname -- "$0")/../lib/common.sh"
: "${SRCDIR:?SRCDIR must name the source root}"
TMP=$(mktemp -d /tmp/bino-lint-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
command -v shellcheck >/dev/null || skip_or_fail "needs shellcheck (Debian package shellcheck)"
cd -- "$SRCDIR"

# candidates: every file of the tree, NUL-terminated: the tracked ones in a
# git checkout, otherwise all but .git and build directories.
candidates() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z
	else
		find . \( -name .git -o -type d -exec test -e '{}/build.ninja' \; \) -prune -o \
			-type f -print0 | sed -z 's|^\./||'
	fi
}

# A shell script: named *.sh or *.bash, or starting with a sh/bash shebang.
candidates | while IFS= read -r -d '' file; do
	[[ -f $file ]] || continue
	if [[ $file == *.sh || $file == *.bash ]] ||
		head -n 1 -- "$file" | grep -qE '^#!.*[/ ](ba|da)?sh([[:space:]]|$)'; then
		printf '%s\0' "$file"
	fi
done >"$TMP/scripts"
count=$(tr -cd '\0' <"$TMP/scripts" | wc -c)
((count > 0)) || fail "found no shell script under $SRCDIR"

# Batches on every processor; -x lets a batch follow a library sourced by a
# directive although the library is in another batch.
status=0
xargs -0 -n 40 -P "$(nproc)" shellcheck -x -S warning -f gcc <"$TMP/scripts" \
	>"$TMP/findings" 2>"$TMP/errors" || status=$?
if [[ -s $TMP/findings ]]; then
	fail "shellcheck findings in $count scripts:
$(sort -- "$TMP/findings")"
fi
((status == 0)) || fail "shellcheck failed (xargs status $status): $(cat -- "$TMP/errors")"
printf '%s: ok (%s scripts)\n' "$TEST_NAME" "$count"
