#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Build the autofs oracle (autofs-oracle.c) as the executable OUT, around
# the machine code of Debian 12's autofs binary package: the package is
# fetched with apt-get download (from a sources list of its own, as
# exports-diff/nfs-utils-oracle.sh fetches nfs-utils' source) into WORK
# once, and its libautofs.so and parse_sun.so are kept there.  Nothing of
# autofs is kept in this repository.  Debian's source package is not used:
# its upstream tarball is missing from some mirrors, and the binary carries
# Debian's patches as built.
#
# Usage: autofs-oracle.sh WORK OUT; then run OUT as "OUT WORK/autofs-lib MAP".
# Environment: AUTOFS_ORACLE_MIRROR (default http://deb.debian.org/debian).
# Exit 77 when it cannot be built here (1 under CI=true).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=${1:?usage: autofs-oracle.sh WORK OUT}
out=${2:?usage: autofs-oracle.sh WORK OUT}
mirror=${AUTOFS_ORACLE_MIRROR:-http://deb.debian.org/debian}
version=5.1.8

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

# Debian 12's autofs binary package, unpacked; its libraries into WORK.
fetch_package() {
	local apt=$tmp/apt
	local deb
	command -v apt-get >/dev/null || cannot "no apt-get to fetch autofs"
	command -v dpkg-deb >/dev/null || cannot "no dpkg-deb"
	mkdir -p "$apt/deb"
	debian_apt "$apt" \
		"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main" \
		"$tmp/apt.log" -o "Dir::State::status=/dev/null" -o APT::Architecture=amd64
	(cd "$apt/deb" && apt-get "${APT_OPTS[@]}" download autofs >>"$tmp/apt.log" 2>&1) ||
		{ cat "$tmp/apt.log" >&2; cannot "apt-get download autofs failed"; }
	deb=
	for deb in "$apt/deb/autofs_$version"-*_amd64.deb; do
		break
	done
	[[ -f $deb ]] || cannot "apt-get download autofs did not give autofs $version: $(ls "$apt/deb")"
	dpkg-deb -x "$deb" "$tmp/x"
	mkdir -p "$work"
	rm -rf "$work/autofs-lib"
	mkdir -p "$work/autofs-lib/autofs"
	cp "$tmp/x/usr/lib/x86_64-linux-gnu/libautofs.so" "$work/autofs-lib/"
	cp "$tmp/x/usr/lib/x86_64-linux-gnu/autofs/parse_sun.so" "$work/autofs-lib/autofs/"
	basename "$deb" >"$work/autofs-lib/.fetched-from"
}

[[ $(uname -m) == x86_64 ]] || cannot "the oracle loads Debian's amd64 autofs libraries"
lib=$work/autofs-lib
[[ -f $lib/libautofs.so && -f $lib/autofs/parse_sun.so && -f $lib/.fetched-from ]] || fetch_package
echo "oracle: autofs from $(cat "$lib/.fetched-from")"
${CC:-cc} -O0 -g -Wall -o "$out" "$here/autofs-oracle.c" -rdynamic -ldl ||
	cannot "building the autofs oracle failed"
# parse_sun.so names libautofs.so by its soname: run OUT with the directory.
LD_LIBRARY_PATH=$lib "$out" "$lib" /dev/null >/dev/null ||
	cannot "the autofs oracle cannot load $lib (needs libtirpc3)"
