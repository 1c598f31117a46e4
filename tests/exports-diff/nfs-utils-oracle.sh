#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Build nfs-utils' own exports(5) reader (oracle.c around getexportent()
# from Debian 12's nfs-utils 2.6.2 source package) as the executable OUT;
# the source is fetched with apt-get source into WORK once, and kept there.
# Shared by the exports-diff suite (run.sh) and the suggest tests that read
# generated exports lines back.  Nothing of nfs-utils is kept in this
# repository.
#
# Usage: nfs-utils-oracle.sh WORK OUT
# Environment: EXPORTS_DIFF_MIRROR (default http://deb.debian.org/debian).
# Exit 77 when it cannot be built here (1 under CI=true).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${1:?usage: nfs-utils-oracle.sh WORK OUT}
out=${2:?usage: nfs-utils-oracle.sh WORK OUT}
mirror=${EXPORTS_DIFF_MIRROR:-http://deb.debian.org/debian}
version=2.6.2

cannot() {
	if [[ ${CI:-} == true ]]; then
		echo "FAIL: $*" >&2
		exit 1
	fi
	echo "SKIP: $*" >&2
	exit 77
}

# shellcheck source=tests/lib/debian-apt.sh
source "$here/../lib/debian-apt.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Debian 12's nfs-utils source, as Debian builds it (patches applied).
fetch_source() {
	local apt=$tmp/apt
	command -v apt-get >/dev/null || cannot "no apt-get to fetch nfs-utils' source"
	command -v dpkg-source >/dev/null || cannot "no dpkg-source (package dpkg-dev)"
	mkdir -p "$apt/src"
	debian_apt "$apt" \
		"deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main" \
		"$tmp/apt.log"
	(cd "$apt/src" && apt-get "${APT_OPTS[@]}" source "nfs-utils" >>"$tmp/apt.log" 2>&1) ||
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
	-o "$out" "$here/oracle.c" "$src/support/nfs/xio.c" ||
	cannot "building nfs-utils' getexportent() failed"
