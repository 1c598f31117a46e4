#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What an idle client keeper costs (issue 38's target: under 1 s of CPU an hour), on a real NFS
# client of a server with N subvolumes mounted below the export (argument; default
# 1000 snapshots of a subvolume in one directory, as a snapshot timeline keeps them): the time its
# first walk takes to mount them on vers=3 and vers=4.2 clients, then over S idle
# seconds (60) its CPU time (/proc/PID/stat) and the NFS calls of the client
# (/proc/net/rpc/nfs), per hour and per second, then its system calls over 30 s
# (strace -c).  Under TCG, which slows every system call and RPC many times, so the CPU
# figure is printed, not checked, with the CPU of a reference workload (reference_cpu)
# that bench/client-idle.sh runs on the host too, to divide by TCG's slowdown; it
# checks that the NFS calls do not grow with N.  Not in the suite (minutes); run by hand:
#   sudo tests/vm/run-vm.sh --btrfs-ino build client-keeper-idle [N [VERS]...]
# or bench/client-idle.sh for the calibrated figure.
set -euo pipefail
. ./lib.sh
need_btrfs_ino
# Arguments: N, then the NFS versions of the clients (default: 3 and 4.2).
args=()
[[ ! -f args ]] || mapfile -t args <args
n=${args[0]:-1000}
versions=("${args[@]:1}")
((${#versions[@]})) || versions=(3 4.2)
seconds=60

scratch_btrfs /data 1G
btrfs -q subvolume create /data/vol
btrfs -q subvolume create /data/vol/spool
fill_tree /data/vol/spool 2 3
mkdir /data/vol/.snapshot
for ((i = 0; i < n; i++)); do
	btrfs -q subvolume snapshot -r /data/vol/spool "/data/vol/.snapshot/s$i"
done
[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
nfs_server_start '/data/vol 127.0.0.1(rw,async,no_subtree_check,no_root_squash,crossmnt)'
btrfs-ino mount -q --exports /etc/exports /data/vol >/dev/null
say "server: $(findmnt -R -n -l /data | grep -c '^/data/vol/') mounts below /data/vol"
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v" 127.0.0.1:/data/vol
done

t0=$EPOCHREALTIME
btrfs-ino mount --watch --client "${versions[@]/#//mnt/v}" >/tmp/client.out 2>/tmp/client.err &
pid=$!
want=$((${#versions[@]} * n))
# It says it watches once its first walk (every directory, through every mount) is done.
for ((i = 0; i < 2400; i++)); do
	[[ $(grep -c ': watching$' /tmp/client.err) -ge ${#versions[@]} ]] && break
	sleep 0.5
done
say "client keeper: $(grep -c ' /mnt/v[34.2]*/.snapshot/' /proc/self/mountinfo) of $want mounts," \
	"first walk done after $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
check "the client keeper mounted every server mount on each client" \
	test "$(grep -c ' /mnt/v[34.2]*/.snapshot/' /proc/self/mountinfo)" -ge "$want"
# Past the first ticks, which read every watched directory once.
sleep 5

cpu() { # the keeper's user + system clock ticks
	awk '{ print $14 + $15 }' "/proc/$pid/stat"
}
calls() { # the client's NFS calls so far
	awk '$1 == "rpc" { print $2 }' /proc/net/rpc/nfs
}
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
c0=$(cpu) r0=$(calls)
sleep "$seconds"
c1=$(cpu) r1=$(calls)
cpu_hour=$(awk -v t=$((c1 - c0)) -v hz="$hz" -v s="$seconds" 'BEGIN { printf "%.2f", t / hz * 3600 / s }')
say "idle ${seconds} s, ${#versions[@]} client(s) x $n server mounts: CPU $((c1 - c0)) ticks" \
	"= $cpu_hour s/hour; NFS calls $((r1 - r0)) = $(awk -v c=$((r1 - r0)) -v s="$seconds" 'BEGIN { printf "%.1f", c / s }')/s"
# Two directories are watched on each client (the export's, which holds spool, and
# .snapshot), whatever N: one GETATTR each a second, and nothing per mount.
check "at most 2 NFS calls a second per client, whatever the number of mounts" \
	awk -v c=$((r1 - r0)) -v s="$seconds" -v n="${#versions[@]}" 'BEGIN { exit !(c / s <= 2 * n + 0.5) }'
say "keeper-cpu-hour $cpu_hour"
# Where the idle ticks go: the keeper's system calls over 30 s.
timeout -s INT 30 strace -c -f -p "$pid" -o /tmp/strace.txt || true
sed 's/^/   /' /tmp/strace.txt | head -n 14
kill -TERM "$pid"
wait "$pid" || true
# The calibration: the same reference workload here and on the host gives TCG's slowdown.
mkdir /tmp/reference
mount -t tmpfs tmpfs /tmp/reference
say "reference-cpu $(reference_cpu /tmp/reference) (btrfs-ino walk x20 over 5,000 files on tmpfs)"
umount /tmp/reference
tail -n 3 /tmp/client.err
finish
