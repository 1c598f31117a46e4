#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Another --prefix moves everything under it, -Dman=false installs no man
# page, and each completion directory option moves that completion or, with
# "no", leaves it out; -Dsystemdsystemunitdir=no installs no systemd unit.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"

TMP=$(mktemp -d /tmp/bino-install-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
install_tree "$TMP" /opt/bino -Dman=false -Dzshcompletiondir=no \
	-Dfishcompletiondir=/etc/fish/completions \
	-Dbashcompletiondir=/opt/bino/share/bash-completion/completions \
	-Dsystemdsystemunitdir=no
lib=${LIBDIR#/}

sort >"$TMP/expected" <<EOT
opt/bino/bin/btrfs-ino
opt/bino/include/btrfsino.h
opt/bino/include/btrfsino-version.h
$lib/libbtrfsino.so.$EXPECTED_VERSION
$lib/libbtrfsino.so.1
$lib/libbtrfsino.so
$lib/btrfs-ino/libbtrfsino-exec.so
$lib/pkgconfig/btrfsino.pc
opt/bino/share/bash-completion/completions/btrfs-ino
etc/fish/completions/btrfs-ino.fish
opt/bino/share/btrfs-ino/prometheus/btrfs-ino.rules.yml
EOT
(cd "$TMP/dest" && find . ! -type d -printf '%P\n') | sort >"$TMP/actual"
if ! cmp -s "$TMP/expected" "$TMP/actual"; then
	diff -u --label expected --label installed "$TMP/expected" "$TMP/actual" >&2 || true
	fail "the installed files are not the expected ones"
fi
prefix=$(PKG_CONFIG_PATH=$DEST$LIBDIR/pkgconfig pkg-config --variable=prefix btrfsino)
[[ $prefix == /opt/bino ]] || fail "btrfsino.pc prefix is '$prefix'"
printf '%s: ok\n' "$TEST_NAME"
