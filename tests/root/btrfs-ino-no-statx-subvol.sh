#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino whose walks never use STATX_SUBVOL, as on kernels before 6.10
# (Debian 12's 6.1): "walk ARGS" runs as "walk --no-statx-subvol ARGS".
# tests/root/lib.sh puts it in BTRFS_INO when BINO_TEST_NO_STATX_SUBVOL=1,
# with the real binary in BINO_TEST_REAL_BTRFS_INO.
set -euo pipefail
real=${BINO_TEST_REAL_BTRFS_INO:?BINO_TEST_REAL_BTRFS_INO must name the built btrfs-ino}
if [[ ${1:-} == walk ]]; then
	shift
	exec "$real" walk --no-statx-subvol "$@"
fi
exec "$real" "$@"
