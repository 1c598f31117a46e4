#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `meson install --destdir` with --prefix=/usr puts exactly the binary, the
# header, the library with its soname links, btrfsino.pc, the man pages, the
# three shell completions where Debian keeps them and the systemd units,
# all under DESTDIR;
# the installed binary runs against the installed library.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
for tool in pkg-config readelf; do
	command -v "$tool" >/dev/null || skip_or_fail "needs $tool"
done

TMP=$(mktemp -d /tmp/bino-install-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
install_tree "$TMP" /usr
lib=${LIBDIR#/}

# bash-completion.pc, when installed, may name another directory; ask it
# the way a packager would, under our datadir.
bashdir=usr/share/bash-completion/completions
if pkg-config --exists bash-completion; then
	bashdir=$(pkg-config --define-variable=datadir=/usr/share --variable=completionsdir bash-completion)
	bashdir=${bashdir#/}
fi

unitdir=usr/lib/systemd/system
if pkg-config --exists systemd; then
	unitdir=$(pkg-config --define-variable=rootprefix=/usr --variable=systemdsystemunitdir systemd)
	unitdir=${unitdir#/}
fi

sort >"$TMP/expected" <<EOT
f usr/bin/btrfs-ino
f usr/include/btrfsino.h
f usr/include/btrfsino-version.h
f $lib/libbtrfsino.so.$EXPECTED_VERSION
l $lib/libbtrfsino.so.1 -> libbtrfsino.so.$EXPECTED_VERSION
l $lib/libbtrfsino.so -> libbtrfsino.so.1
f $lib/btrfs-ino/libbtrfsino-exec.so
f $lib/pkgconfig/btrfsino.pc
f usr/share/man/man1/btrfs-ino.1
f usr/share/man/man3/libbtrfsino.3
f $bashdir/btrfs-ino
f usr/share/zsh/vendor-completions/_btrfs-ino
f usr/share/fish/vendor_completions.d/btrfs-ino.fish
f usr/share/btrfs-ino/prometheus/btrfs-ino.rules.yml
f $unitdir/btrfs-ino-mount.service
f $unitdir/btrfs-ino-client@.service
f $unitdir/btrfs-ino-audit.service
f $unitdir/btrfs-ino-audit.timer
EOT
(cd "$TMP/dest" && find . \( -type f -printf 'f %P\n' \) -o \( -type l -printf 'l %P -> %l\n' \)) |
	sort >"$TMP/actual"
if ! cmp -s "$TMP/expected" "$TMP/actual"; then
	diff -u --label expected --label installed "$TMP/expected" "$TMP/actual" >&2 || true
	fail "the installed files are not the expected ones"
fi

# The installed files are the sources (header, man pages), byte for byte.
cmp -s "$SRCDIR/include/btrfsino.h" "$DEST/usr/include/btrfsino.h" || fail "installed header differs"
cmp -s "$SRCDIR/man/btrfs-ino.1" "$DEST/usr/share/man/man1/btrfs-ino.1" || fail "installed btrfs-ino.1 differs"

# The library's SONAME is the name of the link ldconfig makes.
soname=$(readelf -d "$DEST$LIBDIR/libbtrfsino.so.$EXPECTED_VERSION" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
[[ $soname == libbtrfsino.so.1 ]] || fail "SONAME is '$soname'"

# btrfsino.pc describes the tree as installed, not the DESTDIR.
check_pc() {
	local want=$2 got
	got=$(PKG_CONFIG_PATH=$DEST$LIBDIR/pkgconfig pkg-config --variable="$1" btrfsino)
	[[ $got == "$want" ]] || fail "btrfsino.pc $1 is '$got', expected '$want'"
}
check_pc prefix /usr
check_pc libdir "$LIBDIR"
check_pc includedir /usr/include
version=$(PKG_CONFIG_PATH=$DEST$LIBDIR/pkgconfig pkg-config --modversion btrfsino)
[[ $version == "$EXPECTED_VERSION" ]] || fail "btrfsino.pc version '$version'"
grep -qx 'Requires.private: libbtrfsutil, mount' "$DEST$LIBDIR/pkgconfig/btrfsino.pc" ||
	fail "btrfsino.pc lacks 'Requires.private: libbtrfsutil, mount'"

# The binary has no run path into the build tree, needs the soname, and
# runs against the library next to it in DESTDIR.
bin=$DEST/usr/bin/btrfs-ino
if readelf -d "$bin" | grep -Eq '\((RPATH|RUNPATH)\)'; then
	fail "installed btrfs-ino keeps a run path: $(readelf -d "$bin" | grep -E 'R(UN)?PATH')"
fi
readelf -d "$bin" | grep -q 'NEEDED.*\[libbtrfsino\.so\.1\]' || fail "btrfs-ino does not need libbtrfsino.so.1"
loaded=$(dest_run ldd "$bin" | awk '$1 == "libbtrfsino.so.1" { print $3 }')
[[ $loaded == "$DEST$LIBDIR/libbtrfsino.so.1" ]] || fail "btrfs-ino loads '$loaded'"
out=$(dest_run "$bin" --version)
[[ $out == "btrfs-ino $EXPECTED_VERSION (libbtrfsino $EXPECTED_VERSION)" ]] ||
	fail "installed btrfs-ino --version says '$out'"
# exec finds its preload library next to the installed tree, wherever that is.
out=$(unset BTRFS_INO_EXEC_PRELOAD; dest_run "$bin" exec -- printenv LD_PRELOAD)
[[ $out == "$DEST$LIBDIR/btrfs-ino/libbtrfsino-exec.so" ]] ||
	fail "installed btrfs-ino exec preloads '$out'"

printf '%s: ok\n' "$TEST_NAME"
