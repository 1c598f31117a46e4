#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Differential test of our exports(5) reader against nfs-utils' own: builds
# getexportent() from Debian 12's nfs-utils source package
# (nfs-utils-oracle.sh fetches it into the build directory, once), then
# reads the same files with both (oracle.c, ours.c) and requires the same
# entries (path, client, the flags we model, fsid, sec= flavours) and the
# same place to stop.  Files: every collected
# and corpus file in tests/data/exports (those with NUL bytes or \000 apart:
# we reject NUL on purpose), the fuzz seeds, and files gen.py generates.
#
# Environment: BINO_TEST_DATA (tests/data), EXPORTS_DIFF_OURS (ours.c built),
# EXPORTS_DIFF_WORK (a build directory to keep the source in),
# EXPORTS_DIFF_MIRROR (default http://deb.debian.org/debian),
# EXPORTS_DIFF_GENERATED (files to generate, default 3000).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
data=${BINO_TEST_DATA:?}
ours=${EXPORTS_DIFF_OURS:?}
work=${EXPORTS_DIFF_WORK:?}
generated=${EXPORTS_DIFF_GENERATED:-3000}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$here/nfs-utils-oracle.sh" "$work" "$tmp/oracle"

# The inputs: the corpus and collected files, the fuzz seeds, generated ones.
mkdir -p "$tmp/in" "$tmp/gen"
n=0
while IFS= read -r -d '' f; do
	# NUL bytes, also written "\000", are errors for us on purpose.
	if [[ $(tr -d '\000' <"$f" | wc -c) -ne $(wc -c <"$f") ]] ||
		grep -qF '\000' "$f"; then
		continue
	fi
	n=$((n + 1))
	cp "$f" "$tmp/in/$(printf '%05d' $n)-$(basename "$f")"
done < <(find "$data/exports" "$here/../fuzz/seeds/exports" -type f \
	\( -name '*.exports' -o -path '*/seeds/*' \) -print0 | sort -z)
python3 "$here/gen.py" "$tmp/gen" "$generated" 12
echo "inputs: $n collected, corpus and seed files, $generated generated"

status=0
for dir in "$tmp/in" "$tmp/gen"; do
	files=("$dir"/*)
	"$tmp/oracle" "${files[@]}" >"$tmp/oracle.out" 2>/dev/null
	"$ours" "${files[@]}" >"$tmp/ours.out"
	if ! diff -u "$tmp/oracle.out" "$tmp/ours.out" >"$tmp/diff"; then
		status=1
		echo "DIFFERENT: nfs-utils (-) and ours (+) on $dir:"
		head -40 "$tmp/diff"
		# The first file that differs, and what is in it.
		# Under set -e and pipefail, diff's status 1 and a writer's SIGPIPE
		# (head at the end of a pipe) would end the script before it says
		# which file differs.
		line=$({ diff "$tmp/oracle.out" "$tmp/ours.out" || true; } | sed -n '1s/^\([0-9]*\).*/\1/p')
		first=$(head -n "$line" "$tmp/oracle.out" | grep '^file ' | tail -1)
		[[ -n $first ]] && { echo "$first:"; cat -A "${first#file }" | sed -n 1,20p; }
	fi
	echo "$(basename "$dir"): $(grep -c '^file ' "$tmp/oracle.out") files," \
		"$(grep -vc '^file \|^end ' "$tmp/oracle.out") entries," \
		"$(grep -c '^end stopped' "$tmp/oracle.out") stopped early"
done
exit $status
