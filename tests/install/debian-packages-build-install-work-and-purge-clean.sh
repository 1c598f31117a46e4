#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# debian/ as a distribution uses it: dpkg-buildpackage -us -uc -b in a copy
# of the tree gives libbtrfsino1, libbtrfsino-dev and btrfs-ino, with no
# warning of dpkg-gensymbols; lintian reports no error, and the build leaves
# nothing untracked in the tree (a git repository); installed with dpkg -i
# they work (each ships README.md and NEWS in /usr/share/doc, btrfs-ino
# --version, pkg-config --modversion btrfsino, man -w btrfs-ino, exec of a
# find that is not on NFS, an audit of the classic layout on a loop btrfs);
# dpkg --purge removes every file they installed.  Installing happens in a
# mount namespace of this test's own, /usr, /etc and /var overlaid, so the
# machine's package database and files are left as they were whatever
# happens.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"

[[ $(id -u) -eq 0 ]] || skip_or_fail "needs root (dpkg -i, a loop btrfs)"
for tool in dpkg-buildpackage dh lintian unshare mkfs.btrfs man; do
	command -v "$tool" >/dev/null ||
		skip_or_fail "needs $tool (dpkg-dev, debhelper, lintian, util-linux, btrfs-progs, man-db)"
done

TMP=$(mktemp -d)
cleanup() {
	"$SRCDIR/scripts/classic-layout.sh" destroy "$TMP/layout" >/dev/null 2>&1 || true
	rm -rf -- "$TMP"
}
trap cleanup EXIT
mkdir -p "$TMP/layout"
debian_packages "$TMP"
version=$DEB_VERSION
debs=("${DEBS[@]}")
# What the build made is ignored (.gitignore) or removed by it: a build in
# a clone leaves the clone as it was.
untracked=$(git -C "$TMP/src" status --porcelain)
[[ -z $untracked ]] || fail "the package build left in the tree: $untracked"
# dh_makeshlibs' dpkg-gensymbols: every symbol has its line, none is gone.
if grep -q 'dpkg-gensymbols: warning' "$TMP/build.log"; then
	fail "dpkg-gensymbols warned: $(grep -A 20 'dpkg-gensymbols: warning' "$TMP/build.log")"
fi
lintian "$TMP"/btrfs-ino_*.changes >"$TMP/lintian.log" 2>&1 || true
if grep -q '^E:' "$TMP/lintian.log"; then
	fail "lintian errors: $(grep '^E:' "$TMP/lintian.log")"
fi

"$SRCDIR/scripts/classic-layout.sh" create "$TMP/layout" >/dev/null
echo "$TMP/layout/mnt/fex *(rw,no_subtree_check)" >"$TMP/exports"
mkdir -p "$TMP"/{usr,etc,var}.{upper,work}

# In the namespace: install, check, purge; the last line of the output is
# what the checks found wrong, if anything.
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private bash -c '
	set -uo pipefail
	tmp=$1 version=$2
	shift 2
	bad() { echo "FAIL: $*"; failed=1; }
	failed=0
	for d in usr etc var; do
		mount -t overlay overlay \
			-o "lowerdir=/$d,upperdir=$tmp/$d.upper,workdir=$tmp/$d.work" "/$d" || exit 125
	done
	dpkg -i "$@" >"$tmp/dpkg-i.log" 2>&1 || { cat "$tmp/dpkg-i.log"; exit 1; }
	dpkg-query -L libbtrfsino1 libbtrfsino-dev btrfs-ino | sort -u >"$tmp/listed"
	[[ $(btrfs-ino --version) == *"${version%-*}"* ]] || bad "btrfs-ino --version: $(btrfs-ino --version)"
	[[ $(pkg-config --modversion btrfsino) == "${version%-*}" ]] ||
		bad "pkg-config --modversion btrfsino: $(pkg-config --modversion btrfsino)"
	for package in libbtrfsino1 libbtrfsino-dev btrfs-ino; do
		for doc in README.md NEWS; do
			grep -qx "/usr/share/doc/$package/$doc\(.gz\)\?" "$tmp/listed" ||
				bad "$package ships no /usr/share/doc/$package/$doc"
		done
	done
	[[ $(man -w btrfs-ino) == /usr/share/man/man1/btrfs-ino.1.gz ]] || bad "man -w btrfs-ino: $(man -w btrfs-ino)"
	[[ $(btrfs-ino exec -- find /usr/share/btrfs-ino) == "$(find /usr/share/btrfs-ino)" ]] ||
		bad "btrfs-ino exec -- find differs from find"
	rc=0
	btrfs-ino audit -q --exports "$tmp/exports" "$tmp/layout/mnt/fex" >"$tmp/audit" 2>&1 || rc=$?
	[[ $rc -eq 1 ]] && grep -q "^$tmp/layout/mnt/fex: unsafe" "$tmp/audit" ||
		bad "the audit of the classic layout (exit $rc): $(head -n 3 "$tmp/audit")"
	dpkg --purge btrfs-ino libbtrfsino-dev libbtrfsino1 >"$tmp/purge.log" 2>&1 || bad "dpkg --purge failed"
	while read -r f; do
		[[ -d $f || ! -e $f ]] || bad "left after purge: $f"
	done <"$tmp/listed"
	exit "$failed"
' inner "$TMP" "$version" "${debs[@]}" || fail "the installed packages (see above)"
