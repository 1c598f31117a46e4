#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# libbtrfsino-dev installs on its own: into a clean Debian 12 root
# (mmdebstrap's minbase, with a compiler and pkg-config only), apt
# installs it from its .deb (and libbtrfsino1's, which is in no archive),
# fetching from Debian whatever its Depends name (a failure there is a
# failure of the test, as apt saying the Depends cannot be met is); there, seeing only the
# packages' files, `pkg-config --cflags --libs btrfsino` works, the .pc
# names itself btrfsino, examples/bino-find.c builds with those flags and
# warning-free, and bino-find lists what find lists.  btrfs-ino is not
# installed.  The root is a directory of this test's, removed at the end.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"

[[ $(id -u) -eq 0 ]] || skip_or_fail "needs root (mmdebstrap's root mode, chroot)"
for tool in dpkg-buildpackage dh mmdebstrap unshare; do
	command -v "$tool" >/dev/null ||
		skip_or_fail "needs $tool (dpkg-dev, debhelper, mmdebstrap, util-linux)"
done
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}

TMP=$(mktemp -d)
trap 'rm -rf -- "$TMP"' EXIT
debian_packages "$TMP"
root=$TMP/root
# apt inside the root installs the two files (copied in: apt needs them
# there) and fetches their Depends from Debian.
lib=${DEBS[0]##*/} dev=${DEBS[1]##*/}
# shellcheck disable=SC2016 # $1 is the root, given to the hook by mmdebstrap
mmdebstrap --variant=minbase --include=gcc,libc6-dev,pkgconf \
	--customize-hook="copy-in ${DEBS[0]} ${DEBS[1]} /tmp" \
	--customize-hook='chroot "$1" apt-get install -y --no-install-recommends '"/tmp/$lib /tmp/$dev" \
	bookworm "$root" "deb $mirror bookworm main" >"$TMP/mmdebstrap.log" 2>&1 ||
	{ tail -n 30 "$TMP/mmdebstrap.log" >&2; fail "mmdebstrap of Debian 12 with $dev failed"; }

# Of the root's packages, ours and the -dev packages btrfsino.pc requires.
installed=$(chroot "$root" dpkg-query -W -f='${db:Status-Status} ${Package}\n' |
	sed -n 's/^installed //p' | grep -xE 'libbtrfsino.*|btrfs-ino|libbtrfsutil-dev|libmount-dev' |
	sort | tr '\n' ' ')
check_eq "the packages installed" "libbtrfsino-dev libbtrfsino1 libbtrfsutil-dev libmount-dev " \
	"$installed"
check_eq "the Name of btrfsino.pc" "Name: btrfsino" \
	"$(chroot "$root" sh -c 'grep "^Name:" "$(pkg-config --variable=pcfiledir btrfsino)/btrfsino.pc"')"

cp "$SRCDIR/examples/bino-find.c" "$root/tmp/"
mkdir -p "$root/tmp/tree/a/b" && echo x >"$root/tmp/tree/a/b/x" && ln -s b "$root/tmp/tree/a/l"
# In a mount namespace of its own, with the root's own /proc (the library
# reads the mount table), as a chroot: compile as the example says, then run.
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private chroot "$root" sh -ec '
	mount -t proc proc /proc
	cd /tmp
	cc -Wall -Wextra -Werror -o bino-find bino-find.c $(pkg-config --cflags --libs btrfsino)
	./bino-find /tmp/tree | sort >bino.out
	find /tmp/tree | sort >find.out
' >"$TMP/chroot.log" 2>&1 || fail "in the clean root: $(cat "$TMP/chroot.log")"
check_files_eq "bino-find /tmp/tree (+) against find (-)" "$root/tmp/find.out" "$root/tmp/bino.out"
