#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Download and unpack a Debian package for the VM without installing it on the host (cached, idempotent).
#
# Usage: fetch-package.sh PACKAGE [CACHE_DIR]
# Prints the directory the package's files were unpacked into (CACHE_DIR/PACKAGE_VERSION) on stdout.
#
# For daemons the VM needs but the host must not run: installing autofs would enable
# and, without systemd, start automount on the host (its postinst calls invoke-rc.d).
# The package's own dependencies are not fetched; the libraries its programs need are
# taken from the host (mkinitramfs.sh finds them with ldd).
set -euo pipefail

pkg=${1:?usage: fetch-package.sh PACKAGE [CACHE_DIR]}
cache=${2:-${BINO_VM_CACHE:-/var/cache/btrfs-ino-vm}}

# The candidate version names the directory, so an update of the package lands in a
# new one and the base initramfs (whose stamp lists the files) is rebuilt.
# shellcheck source=tests/vm/apt-answer.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/apt-answer.sh"
candidate() {
	apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p' | grep -vx '(none)'
}
version=$(apt_answer "$cache/.$pkg-candidate" candidate)
if [[ -z $version || $version == '(none)' ]]; then
	echo "fetch-package: no candidate version of $pkg (apt-get update?)" >&2
	exit 1
fi
dest=$cache/${pkg}_${version//:/%3a}

if [[ -f $dest/.complete ]]; then
	echo "$dest"
	exit 0
fi

mkdir -p "$cache"
tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# As in fetch-kernel.sh: the .deb stays out of the working directory, and the _apt
# sandbox user cannot write into a root-only cache.
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$version" >&2)
mkdir -p "$tmp/root"
dpkg-deb -x "$tmp"/"${pkg}"_*.deb "$tmp/root"
touch "$tmp/root/.complete"

rm -rf "$dest"
mv "$tmp/root" "$dest"
echo "$dest"
