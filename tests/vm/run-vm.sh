#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Boot a throw-away qemu VM (TCG) with a real NFS server and client, run one scenario in it.
#
# Usage: run-vm.sh [--btrfs-ino BUILD_DIR] [--log FILE] SCENARIO [ARGS...]
#   SCENARIO is a path or a name under tests/vm/scenarios/ (with or without .sh).
#   Exits with the scenario's status; 77 (skip) when a prerequisite is missing
#   or the scenario skipped, except under CI=true where that is a failure (1).
# Environment: BINO_VM_CACHE (kernel and base initramfs cache, default /var/cache/btrfs-ino-vm),
#   BINO_VM_TIMEOUT (hard limit in seconds for one boot, default 300).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${BINO_VM_CACHE:-/var/cache/btrfs-ino-vm}
limit=${BINO_VM_TIMEOUT:-300}

usage() {
	echo "usage: $0 [--btrfs-ino BUILD_DIR] [--log FILE] SCENARIO [ARGS...]" >&2
	exit 2
}

# A machine that cannot run the VM skips the test; CI must have everything.
missing() {
	echo "run-vm: $*" >&2
	if [[ ${CI:-} == true ]]; then
		exit 1
	fi
	echo "run-vm: skipping (exit 77)" >&2
	exit 77
}

build_dir=
log=
while [[ $# -gt 0 ]]; do
	case $1 in
	--btrfs-ino) build_dir=${2:?}; shift 2 ;;
	--log) log=${2:?}; shift 2 ;;
	--help | -h) usage ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[[ $# -ge 1 ]] || usage
scenario=$1
shift
if [[ ! -f $scenario ]]; then
	scenario=$here/scenarios/${scenario%.sh}.sh
fi
[[ -f $scenario ]] || { echo "run-vm: no scenario $1" >&2; exit 2; }

[[ $(id -u) -eq 0 ]] || missing "must run as root (device nodes in the initramfs, cache in $cache)"
for tool in qemu-system-x86_64 busybox cpio apt-get dpkg-deb mkfs.btrfs rpc.nfsd rpcbind mount.nfs jq; do
	PATH=$PATH:/usr/sbin:/sbin command -v "$tool" >/dev/null ||
		missing "$tool not found (apt-get install --no-install-recommends qemu-system-x86 busybox-static cpio btrfs-progs nfs-kernel-server nfs-common rpcbind jq)"
done

kroot=$("$here/fetch-kernel.sh" "$cache") || missing "cannot fetch the Debian cloud kernel into $cache"
kernel=$(ls "$kroot"/boot/vmlinuz-*)
base=$cache/initramfs-base.cpio
autofs_root=
# automount for the autofs scenarios, unpacked rather than installed: the host must not
# run it.  In a base of their own: its libraries (libxml2, ICU's 30 MB of data) would
# double every other boot's archive.
if grep -q '^[^#]*\bautomount\b' "$scenario"; then
	autofs_root=$("$here/fetch-package.sh" autofs "$cache") ||
		missing "cannot fetch the autofs package into $cache"
	base=$cache/initramfs-base-autofs.cpio
fi
"$here/mkinitramfs.sh" base "$kroot" "$base" ${autofs_root:+"$autofs_root"} || missing "cannot build the base initramfs"

work=$(mktemp -d)
qemu_pid=
cleanup() {
	if [[ -n $qemu_pid ]]; then
		kill "$qemu_pid" 2>/dev/null || true
		wait "$qemu_pid" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT
# Turn signals into an exit so the EXIT trap stops qemu.
trap "exit 143" TERM INT HUP

# The per-run archive: the scenario, its helpers and arguments, the probe, btrfs-ino.
extras=("$scenario:/scenarios/run.sh" "$here/scenarios/lib.sh:/scenarios/lib.sh"
	"$here/../root-suggest/apply-replacements.awk:/scenarios/apply-replacements.awk")
printf '%s\n' "$@" >"$work/args"
[[ $# -gt 0 ]] && extras+=("$work/args:/scenarios/args")
# The probes are built fresh from source; only scenarios that call one need a compiler.
for probe in "$here"/probe/*.c; do
	name=$(basename "$probe" .c)
	if command -v gcc >/dev/null; then
		gcc -O2 -Wall -Wextra -o "$work/$name" "$probe"
		extras+=("$work/$name")
	elif grep -q "$name" "$scenario"; then
		missing "gcc not found, needed to build probe/$name.c"
	fi
done
# strace (and its libraries) for the scenarios that count system calls.
if grep -q '^[^#]*\bstrace\b' "$scenario"; then
	strace=$(command -v strace) || missing "strace not found, needed by $(basename "$scenario")"
	extras+=("$strace")
fi
if [[ -n $build_dir ]]; then
	# Where meson puts them in this project; a search only for other layouts, as
	# the build tree may also hold installed copies (tests/install).
	exe=$build_dir/cli/btrfs-ino
	[[ -x $exe ]] || exe=$(find "$build_dir" -name btrfs-ino -type f -executable -print -quit)
	[[ -n $exe ]] || { echo "run-vm: no btrfs-ino in $build_dir" >&2; exit 2; }
	extras+=("$exe")
	while read -r lib; do
		extras+=("$lib")
	# -xtype f: files and the links that resolve (a build directory keeps
	# the dangling soname link of a library version it no longer builds).
	done < <(libdir=$build_dir/lib; [[ -d $libdir ]] || libdir=$build_dir
		find "$libdir" -regextype posix-extended \
			-regex '.*/libbtrfsino(\.so(\.[0-9]+)*|-exec\.so)' \
		-xtype f)
fi
"$here/mkinitramfs.sh" extra "$work/extra.cpio" "${extras[@]}"
# qemu takes one initrd; the kernel unpacks concatenated archives in order.
cat "$base" "$work/extra.cpio" >"$work/initrd.cpio"

[[ -n $log ]] || log=$work/console.log
# mitigations=off: under TCG every Spectre mitigation (retpolines, RSB
# filling) is emulated code on every call and return, some 10% of a
# scenario's time, and this throw-away guest runs nothing untrusted.
start=$(date +%s)
# timeout is the hard limit (a hung guest must not hang the suite); killing it from
# the EXIT trap forwards the signal to qemu.
timeout --kill-after=10 "$limit" \
	qemu-system-x86_64 -accel tcg -cpu max -m 2G -smp 2 -nographic -no-reboot -nic none \
	-kernel "$kernel" -initrd "$work/initrd.cpio" \
	-append "console=ttyS0 panic=-1 quiet mitigations=off" \
	</dev/null >"$log" 2>&1 &
qemu_pid=$!
qemu_rc=0
wait "$qemu_pid" || qemu_rc=$?
qemu_pid=
elapsed=$(($(date +%s) - start))

# The serial console ends lines with CRLF.
sed -i 's/\r$//' "$log"
if ! grep -q '^@@BINO-VM-END rc=[0-9]*@@$' "$log"; then
	echo "run-vm: no end marker after ${elapsed}s (qemu status $qemu_rc, limit ${limit}s); console tail:" >&2
	tail -n 60 "$log" >&2
	exit 1
fi
sed -n '/@@BINO-VM-BEGIN@@$/,/^@@BINO-VM-END rc=[0-9]*@@$/p' "$log" | sed '1d;$d'
rc=$(sed -n 's/^@@BINO-VM-END rc=\([0-9]*\)@@$/\1/p' "$log")
if [[ $rc -ne 0 && $rc -ne 77 ]]; then
	sed -n '/^--- dmesg (tail) ---$/,$p' "$log" >&2
fi
echo "run-vm: $(basename "$scenario") exited $rc after ${elapsed}s (boot + scenario)" >&2
# A scenario skips (77) when the VM lacks something (need_btrfs_ino); CI must have it all.
if [[ $rc -eq 77 && ${CI:-} == true ]]; then
	echo "run-vm: the scenario skipped: a failure under CI=true" >&2
	exit 1
fi
exit "$rc"
