#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# -Dtests is a feature: on a machine with the run dependencies only (here,
# pkg-config shown every .pc file but Criterion's), the default (auto)
# configures, builds and installs with no test; -Dtests=enabled refuses,
# naming Criterion; with Criterion there, auto builds the tests.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"

TMP=$(mktemp -d)
trap 'rm -rf -- "$TMP"' EXIT
meson=${MESON:-meson}
mkdir "$TMP/pc"
pkg-config --exists criterion || install_skip_or_fail "needs Criterion (libcriterion-dev)"
for dir in $(pkg-config --variable pc_path pkg-config | tr : ' '); do
	for pc in "$dir"/*.pc; do
		[[ -e $pc && $(basename -- "$pc") != criterion.pc ]] && ln -sf -- "$pc" "$TMP/pc/"
	done
done
[[ ! -e $TMP/pc/criterion.pc && -e $TMP/pc/mount.pc ]] || fail "the pkg-config directory without Criterion is wrong"

# shellcheck disable=SC2086 # MESON may be "python3 /path/meson.py"
PKG_CONFIG_LIBDIR=$TMP/pc $meson setup "$TMP/auto" "$SRCDIR" --prefix=/usr >"$TMP/auto.log" 2>&1 ||
	{ tail -n 20 "$TMP/auto.log" >&2; fail "auto without Criterion does not configure"; }
grep -qE '^ *tests *: *False' "$TMP/auto.log" || fail "the summary does not say tests False"
ninja -C "$TMP/auto" >"$TMP/auto-build.log" 2>&1 || fail "auto without Criterion does not build"
# shellcheck disable=SC2086
$meson test -C "$TMP/auto" --list >"$TMP/list" 2>&1 || true
grep -q "No tests defined" "$TMP/list" || fail "tests were defined without Criterion: $(head -n 3 "$TMP/list")"
# shellcheck disable=SC2086
$meson install -C "$TMP/auto" --destdir "$TMP/dest" --no-rebuild >/dev/null 2>&1 ||
	fail "auto without Criterion does not install"
[[ -x $TMP/dest/usr/bin/btrfs-ino ]] || fail "no btrfs-ino installed"

# shellcheck disable=SC2086
if PKG_CONFIG_LIBDIR=$TMP/pc $meson setup "$TMP/enabled" "$SRCDIR" -Dtests=enabled >"$TMP/enabled.log" 2>&1; then
	fail "-Dtests=enabled configured without Criterion"
fi
grep -q 'Dependency "criterion" not found' "$TMP/enabled.log" || fail "-Dtests=enabled does not name Criterion: $(tail -n 3 "$TMP/enabled.log")"

# shellcheck disable=SC2086
$meson setup "$TMP/with" "$SRCDIR" >"$TMP/with.log" 2>&1 || fail "auto with Criterion does not configure"
grep -qE '^ *tests *: *True' "$TMP/with.log" || fail "auto with Criterion builds no tests"
