#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Rewrites tests/abi/baseline.abi from a build: the one deliberate way to
# change the ABI that library-abi-equals-the-baseline accepts.
#   tests/abi/update-baseline.sh [BUILDDIR]   (default: build; run ninja first)
# Commit the new baseline.abi with the change that made it, and bump the
# soname (lib/meson.build) if something was removed or changed.
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$src/build}
export HEADER=$src/include/btrfsino.h SYMFILE=$src/lib/libbtrfsino.sym
# shellcheck source=tests/abi/lib.sh
. "$src/tests/abi/lib.sh"
library=$(find "$build/lib" -maxdepth 1 -type f -name 'libbtrfsino.so.*.*.*' | sort | tail -n 1)
[[ -n $library ]] || fail "no built libbtrfsino.so.X.Y.Z in $build/lib (run ninja -C $build)"
abi_dump "$library" "$src/tests/abi/baseline.abi"
printf 'wrote %s from %s\n' "$src/tests/abi/baseline.abi" "$library"
