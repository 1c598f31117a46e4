#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Time btrfs-ino walk --json against find on an NFSv4.2 client, in the project's VM.
#
# Usage:
#   bench/walk-on-client.sh [--runs R] [--build DIR]
#
# Boots the qemu VM of tests/vm (root, qemu TCG with 2 vCPUs) with the
# scenario walk-on-client-speed: an export of 18,079 entries in 748
# directories, mounted with vers=4.2 on the same VM.  Besides what the suite
# checks (the server's identities, one statx per directory), it times
# `walk -q --json` and `find` R times each (default 3), cold (caches dropped
# on client and server) and warm, interleaved, and prints the medians and
# the ratios walk/find.  btrfs-ino comes from the meson build directory DIR
# (default ./build).  Takes about 4 minutes at R = 3.  The suite runs the same
# scenario with R = 0 (test walk-on-client-statx-per-directory): timings are
# never asserted.
set -euo pipefail

prog=${0##*/}
repo=$(cd -- "$(dirname -- "$0")/.." && pwd)
runs=3
build=$repo/build

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 2
}

while [[ $# -gt 0 ]]; do
	case $1 in
	--runs) runs=${2:?}; shift 2 ;;
	--build) build=${2:?}; shift 2 ;;
	-h | --help) sed -n '3,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || die "--runs takes a positive number, not '$runs'"
[[ -x $build/cli/btrfs-ino ]] || die "no $build/cli/btrfs-ino: build first (meson setup build && ninja -C build)"

# Twelve timed runs at R = 3 under TCG: more than run-vm.sh's default limit.
BINO_VM_TIMEOUT=${BINO_VM_TIMEOUT:-$((300 + 120 * runs))} \
	exec "$repo/tests/vm/run-vm.sh" --btrfs-ino "$build" walk-on-client-speed "$runs"
