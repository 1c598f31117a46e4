#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Our exports(5) writer against nfs-utils' reader: paths holding a
# backslash before digits ("\3b", "\34x", "\340", "\400", "\\340", ...),
# written by quote_exports_path() as suggest writes them (writer.c), are
# read back by getexportent() (oracle.c, nfs-utils-oracle.sh) and by ours
# (ours.c) as exactly those paths; and quote_exports_refusal() refuses a
# path if and only if getexportent() would read it back as another.
#
# Environment: EXPORTS_DIFF_OURS, EXPORTS_DIFF_WRITER (writer.c built),
# EXPORTS_DIFF_WORK (a build directory to keep nfs-utils' source in).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ours=${EXPORTS_DIFF_OURS:?}
writer=${EXPORTS_DIFF_WRITER:?}
work=${EXPORTS_DIFF_WORK:?}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$here/nfs-utils-oracle.sh" "$work" "$tmp/oracle"
"$writer" "$tmp/accepted.exports" "$tmp/refused.exports" >"$tmp/paths"

status=0
# paths_read FILE: the paths a reader's output (on stdin) names, in order.
paths_read() {
	grep -v -e '^file ' -e '^end ' | cut -f1
}
sed -n 's/^accepted //p' "$tmp/paths" >"$tmp/accepted"
sed -n 's/^refused //p' "$tmp/paths" >"$tmp/refused"
echo "paths: $(wc -l <"$tmp/accepted") accepted, $(wc -l <"$tmp/refused") refused"

"$tmp/oracle" "$tmp/accepted.exports" >"$tmp/oracle.out" 2>/dev/null
"$ours" "$tmp/accepted.exports" >"$tmp/ours.out"
for reader in oracle ours; do
	if [[ $(tail -n 1 "$tmp/$reader.out") != "end eof" ]]; then
		echo "FAIL: $reader stops before the end of the accepted lines: $(tail -n 1 "$tmp/$reader.out")"
		status=1
	fi
	if ! paths_read <"$tmp/$reader.out" | diff -u "$tmp/accepted" - >"$tmp/diff"; then
		echo "FAIL: $reader reads accepted paths back as others (-written +read):"
		head -20 "$tmp/diff"
		status=1
	fi
done

# Each refused path: getexportent reads its line back as another path.
"$tmp/oracle" "$tmp/refused.exports" 2>/dev/null | paths_read >"$tmp/refused.read"
if [[ $(wc -l <"$tmp/refused.read") != $(wc -l <"$tmp/refused") ]]; then
	echo "FAIL: getexportent reads $(wc -l <"$tmp/refused.read") of $(wc -l <"$tmp/refused") refused lines"
	status=1
fi
same=$(paste "$tmp/refused" "$tmp/refused.read" | awk -F '\t' '$1 == $2' | tee "$tmp/same" | wc -l)
if ((same)); then
	echo "FAIL: $same refused paths getexportent reads back exactly, e.g.:"
	head -10 "$tmp/same"
	status=1
fi
exit $status
