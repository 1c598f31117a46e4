#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit's client advice (the fstab lines and the autofs entry) when memory
# runs out at each of its allocations in turn: it either fails (exit 2 of
# the driver, client-advice.c) or prints exactly what it prints with memory
# to spare; never a line short, a "-" for a text it lost, or an autofs
# offset left out as if the entry were too long.
set -euo pipefail
source "$(dirname -- "$0")/../lib/common.sh"
: "${CLIENT_ADVICE:?CLIENT_ADVICE must name the built client-advice driver}"
TMP=$(mktemp -d /tmp/bino-advice-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT

args=(srv:/data/fex /nfs/fex 'rw,vers=3' /nfs/fex/spool /nfs/fex/spool/.snapshot/s1)
"$CLIENT_ADVICE" "${args[@]}" >"$TMP/whole"
grep -q '^    /nfs/fex -fstype=nfs' "$TMP/whole" || fail "no autofs entry: $(cat "$TMP/whole")"
failed=0
same=0
# Past the last allocation nothing fails: the advice is whole again, run
# after run (an allocation whose failure stdio works around is too).
for ((n = 1; same < 20 && n < 1000; n++)); do
	rc=0
	CLIENT_ADVICE_FAIL_ALLOCATION=$n "$CLIENT_ADVICE" "${args[@]}" >"$TMP/out" 2>&1 || rc=$?
	if ((rc == 0)) && cmp -s "$TMP/whole" "$TMP/out"; then
		same=$((same + 1))
		continue
	fi
	same=0
	((rc == 0)) &&
		fail "allocation $n: exit status 0, the advice not whole: $(diff "$TMP/whole" "$TMP/out" | head -n 4)"
	check_eq "allocation $n: exit status" 2 "$rc"
	grep -q 'too long' "$TMP/out" && fail "allocation $n: out of memory said as too long"
	failed=$((failed + 1))
done
((failed >= 10)) || fail "only $failed allocations made the advice fail"
finish
