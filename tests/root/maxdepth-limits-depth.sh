#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --maxdepth N lists what find -maxdepth N lists, and "depth" counts the
# levels below the start path.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

for n in 0 1 2 3 5; do
	find "$MNT" -maxdepth "$n" -printf '%p\t%d\n' | sort >"$OUT/expected.$n"
	walk "d$n" --json --maxdepth "$n" "$MNT"
	check_walk_rc "d$n" 0
	jq -r 'select(.event == "entry") | [.path, (.depth | tostring)] | @tsv' "$OUT/d$n" |
		sort >"$OUT/actual.$n"
	check_files_eq "--maxdepth $n: path and depth" "$OUT/expected.$n" "$OUT/actual.$n"
done

# A start path below the top: depths restart at 0 there.
spool=$MNT/fex/spool
find "$spool" -maxdepth 1 -printf '%p\t%d\n' | sort >"$OUT/expected.spool"
walk spool --json --maxdepth 1 "$spool"
check_walk_rc spool 0
jq -r 'select(.event == "entry") | [.path, (.depth | tostring)] | @tsv' "$OUT/spool" |
	sort >"$OUT/actual.spool"
check_files_eq "--maxdepth 1 from spool" "$OUT/expected.spool" "$OUT/actual.spool"

finish
