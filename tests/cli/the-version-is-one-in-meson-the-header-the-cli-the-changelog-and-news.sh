#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# One version everywhere: meson's project version is what a program
# compiled against btrfsino.h sees (BINO_VERSION_MAJOR.MINOR.MICRO and
# BINO_VERSION_STRING), what bino_version() returns at run time, what
# btrfs-ino --version prints, the upstream part of debian/changelog's newest
# entry and the newest release NEWS names.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO_VERSION:?BTRFS_INO_VERSION must be the meson project version}"
: "${SRCDIR:?}" "${BUILD_INCLUDE:?}" "${LIBRARY:?}" "${CC:?}"
want=$BTRFS_INO_VERSION

cat >"$TMP/version.c" <<'C'
#include <stdio.h>
#include <btrfsino.h>
int main(void)
{
	printf("%d.%d.%d %s %s\n", BINO_VERSION_MAJOR, BINO_VERSION_MINOR,
	       BINO_VERSION_MICRO, BINO_VERSION_STRING, bino_version());
	return 0;
}
C
# shellcheck disable=SC2086 # CC may be "ccache cc"; SANITIZE_FLAGS are words
$CC ${SANITIZE_FLAGS:-} -I "$SRCDIR/include" -I "$BUILD_INCLUDE" -o "$TMP/version" "$TMP/version.c" \
	"$LIBRARY" || fail "a program using the version macros does not compile"
check_eq "BINO_VERSION_MAJOR.MINOR.MICRO, _STRING, bino_version()" "$want $want $want" \
	"$(LD_LIBRARY_PATH=$(dirname "$LIBRARY") "$TMP/version")"

run --version
check_eq "btrfs-ino --version" "btrfs-ino $want (libbtrfsino $want)" "$(cat "$OUT")"

# "btrfs-ino (1.2.0-1) unstable; urgency=medium": the upstream version is
# what precedes the last '-' (the Debian revision).
entry=$(sed -n '1s/^btrfs-ino (\([^)]*\)).*/\1/p' "$SRCDIR/debian/changelog")
check_eq "debian/changelog's newest entry, less its revision" "$want" "${entry%-*}"

check_eq "NEWS's newest section" "btrfs-ino $want" \
	"$(grep -m1 -E '^btrfs-ino [0-9]|^Next' "$SRCDIR/NEWS")"
