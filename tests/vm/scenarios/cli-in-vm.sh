#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The freshly built btrfs-ino runs inside the VM, against the libbtrfsino it was built with.
set -euo pipefail
. ./lib.sh

if ! command -v btrfs-ino >/dev/null; then
	echo "btrfs-ino not in the VM (run-vm.sh --btrfs-ino BUILD_DIR); skipping"
	exit 77
fi

check "btrfs-ino --version exits 0" btrfs-ino --version
check "libbtrfsino comes from the build dir copy in /usr/local/lib" \
	grep -q '/usr/local/lib/libbtrfsino.so' <(ldd "$(command -v btrfs-ino)")
finish
