#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every command line README.md and man/btrfs-ino.1 print is an entry of
# tests/docs/commands (so a test runs it verbatim, or the table says why not),
# and every entry is still printed by them: a command added to the documents
# without a test, or a test of a command they no longer print, fails here.
set -euo pipefail
# shellcheck source=tests/docs/lib.sh
. "$(dirname "$0")/lib.sh"

status=0
declare -A tabled=()
while IFS=$'\t' read -r -d '' where what cmd; do
	case $where in
	vm | host) [[ $what =~ ^[0-9]+$ ]] || { echo "entry with no exit status: $cmd" >&2; status=1; } ;;
	none) [[ -n $what ]] || { echo "entry not run with no reason: $cmd" >&2; status=1; } ;;
	*) echo "entry with an unknown place '$where': $cmd" >&2; status=1 ;;
	esac
	tabled[$cmd]=1
done < <(table_entries)

declare -A documented=()
n=0
while IFS= read -r -d '' cmd; do
	n=$((n + 1))
	documented[$cmd]=1
	if [[ -z ${tabled[$cmd]:-} ]]; then
		echo "documented, not in tests/docs/commands ($(where_documented "$cmd" | paste -sd' ')):" >&2
		printf '  %s\n' "$cmd" >&2
		status=1
	fi
done < <(documented_commands)
for cmd in "${!tabled[@]}"; do
	if [[ -z ${documented[$cmd]:-} ]]; then
		printf 'in tests/docs/commands, printed by no document:\n  %s\n' "$cmd" >&2
		status=1
	fi
done
((n >= 20)) || { echo "only $n documented commands found: the extraction broke" >&2; status=1; }
echo "$n documented commands, ${#tabled[@]} table entries"
exit "$status"
