#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What an idle client keeper (`btrfs-ino mount --watch --client`) would cost on native
# hardware.  The VM scenario client-keeper-idle measures it under qemu's TCG emulation,
# which slows every system call many times, so its raw CPU figure says little about a
# real client.  It also measures a reference workload (reference_cpu in
# tests/vm/scenarios/lib.sh: btrfs-ino walk over a fixed tree on tmpfs); this script
# runs the same workload here, on the host, and divides the keeper's figure by the
# slowdown the two show.
#
# Usage (root: it boots the VM):
#   bench/client-idle.sh [--build DIR] [N [VERS]...]
# N server mounts below the export (default 1000), VERS the clients' NFS versions.
set -euo pipefail

repo=$(cd -- "$(dirname -- "$0")/.." && pwd)
build=$repo/build
if [[ ${1:-} == --build ]]; then
	build=$(realpath "${2:?--build needs a directory}")
	shift 2
fi
# shellcheck source=../tests/vm/scenarios/lib.sh
. "$repo/tests/vm/scenarios/lib.sh"
export PATH=$build/cli:$PATH

ref=$(mktemp -d /dev/shm/client-idle.XXXXXX)
trap 'rm -rf "$ref"' EXIT
host_ref=$(reference_cpu "$ref")
log=$ref/vm.log
"$repo/tests/vm/run-vm.sh" --btrfs-ino "$build" client-keeper-idle "$@" >"$log" 2>&1 || {
	cat "$log"
	exit 1
}
grep -E '^(== (idle|client keeper|reference)|ok|FAIL)' "$log"
sed -n '/% time/,/ total$/p' "$log"
vm_ref=$(awk '$2 == "reference-cpu" { print $3 }' "$log")
vm_hour=$(awk '$2 == "keeper-cpu-hour" { print $3 }' "$log")
awk -v h="$host_ref" -v v="$vm_ref" -v k="$vm_hour" 'BEGIN {
	printf "reference workload: %.3f s CPU on the host, %.3f s in the VM: TCG slowdown %.1fx\n", h, v, v / h
	printf "client keeper idle: %.2f s CPU an hour in the VM, so about %.2f s an hour natively\n", k, k * h / v
}'
