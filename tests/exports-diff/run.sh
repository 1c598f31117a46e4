#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Differential test of our exports(5) reader against nfs-utils' own: builds
# getexportent() from Debian 12's nfs-utils source package (fetched with
# apt-get source into the build directory, once; nothing of nfs-utils is
# kept in this repository), then reads the same files with both (oracle.c,
# ours.c) and requires the same entries (path, client, the flags we model,
# fsid, sec= flavours) and the same place to stop.  Files: every collected
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
mirror=${EXPORTS_DIFF_MIRROR:-http://deb.debian.org/debian}
generated=${EXPORTS_DIFF_GENERATED:-3000}
version=2.6.2

cannot() {
	if [[ ${CI:-} == true ]]; then
		echo "FAIL: $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Debian 12's nfs-utils source, as Debian builds it (patches applied).
fetch_source() {
	local apt=$tmp/apt
	local opts
	command -v apt-get >/dev/null || cannot "no apt-get to fetch nfs-utils' source"
	command -v dpkg-source >/dev/null || cannot "no dpkg-source (package dpkg-dev)"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/src"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main" \
		>"$apt/sources.list"
	opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache"
		-o APT::Sandbox::User="$(id -un)" -qq)
	apt-get "${opts[@]}" update >"$tmp/apt.log" 2>&1 ||
		{ cat "$tmp/apt.log" >&2; cannot "apt-get update of $mirror bookworm sources failed"; }
	(cd "$apt/src" && apt-get "${opts[@]}" source "nfs-utils" >>"$tmp/apt.log" 2>&1) ||
		{ cat "$tmp/apt.log" >&2; cannot "apt-get source nfs-utils failed"; }
	[[ -f $apt/src/nfs-utils-$version/support/nfs/exports.c ]] ||
		cannot "apt-get source nfs-utils did not give nfs-utils $version: $(ls "$apt/src")"
	ls "$apt/src"/*.dsc >"$apt/src/nfs-utils-$version/.fetched-from"
	mkdir -p "$work"
	rm -rf "$work/nfs-utils-$version"
	mv "$apt/src/nfs-utils-$version" "$work/"
}

src=$work/nfs-utils-$version
[[ -f $src/support/nfs/exports.c && -f $src/.fetched-from ]] || fetch_source
echo "oracle: nfs-utils from $(xargs -n1 basename <"$src/.fetched-from")"

tirpc=$(pkg-config --cflags libtirpc 2>/dev/null) ||
	cannot "no libtirpc headers (package libtirpc-dev) to build nfs-utils' parser"
: >"$tmp/config.h"
# shellcheck disable=SC2086 # pkg-config's flags are words
${CC:-cc} -O0 -w -I"$tmp" -I"$src/support/include" -I"$src/support/nfs" $tirpc \
	-o "$tmp/oracle" "$here/oracle.c" "$src/support/nfs/xio.c" ||
	cannot "building nfs-utils' getexportent() failed"

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
