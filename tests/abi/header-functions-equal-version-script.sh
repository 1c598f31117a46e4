#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every function include/btrfsino.h declares is in lib/libbtrfsino.sym, and
# the script lists nothing the header does not declare: a new API function
# cannot ship unexported, nor a removed one linger in the ABI.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"

header_functions >"$TMP/header"
script_symbols >"$TMP/script"
[[ -s $TMP/header ]] || fail "found no function in $HEADER"
[[ -s $TMP/script ]] || fail "found no global symbol in $SYMFILE"
check_same_list "header and version script disagree" \
	"the header" "$TMP/header" "the version script" "$TMP/script"
dups=$(uniq -d "$TMP/script")
[[ -z $dups ]] || fail "listed twice in the version script: $dups"

# Version nodes, each named after the library and a version, the first hiding
# everything else ("local: *;").
nodes=$(script_nodes)
[[ -n $nodes ]] || fail "found no version node in $SYMFILE"
while read -r node; do
	[[ $node =~ ^LIBBTRFSINO_[0-9]+\.[0-9]+$ ]] || fail "node '$node' is not LIBBTRFSINO_MAJOR.MINOR"
done <<<"$nodes"
tr -d ' \t\n' <"$SYMFILE" | grep -Fq 'local:*;};' || fail "the script does not end with 'local: *;'"
printf '%s: ok (%d functions in nodes %s)\n' "$TEST_NAME" "$(wc -l <"$TMP/header")" "$(paste -sd' ' <<<"$nodes")"
