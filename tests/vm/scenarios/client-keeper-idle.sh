#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What an idle client keeper costs (issue 38: under 1 s of CPU an hour), on a real NFS
# client of a server with N subvolumes mounted below the export (argument; default
# 1000 snapshots of a subvolume in one directory, as a snapshot timeline keeps them): the time its
# first walk takes to mount them on vers=3 and vers=4.2 clients, then over S idle
# seconds (60) its CPU time (/proc/PID/stat) and the NFS calls of the client
# (/proc/net/rpc/nfs), per hour and per second.  Under TCG, so the CPU figure is an
# upper bound.  Not in the suite (minutes); run by hand:
#   sudo tests/vm/run-vm.sh --btrfs-ino build client-keeper-idle [N]
set -euo pipefail
. ./lib.sh
need_btrfs_ino
n=$(cat args 2>/dev/null || echo 1000)
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
for v in 3 4.2; do
	nfs_mount "$v" "/mnt/v$v" 127.0.0.1:/data/vol
done

t0=$EPOCHREALTIME
btrfs-ino mount --watch --client /mnt/v3 /mnt/v4.2 >/tmp/client.out 2>/tmp/client.err &
pid=$!
want=$((2 * n))
# Its "mount" lines, one per mount made: cheaper to count than the mount table.
for ((i = 0; i < 1200; i++)); do
	[[ $(grep -c '^mount /mnt/v[34.2]*/.snapshot/' /tmp/client.out) -ge $want ]] && break
	sleep 0.5
done
say "client keeper: $(grep -c ' /mnt/v[34.2]*/.snapshot/' /proc/self/mountinfo) of $want mounts" \
	"after $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }') s"
check "the client keeper mounted every server mount on both clients" \
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
say "idle ${seconds} s, 2 clients x $n server mounts: CPU $((c1 - c0)) ticks" \
	"= $cpu_hour s/hour; NFS calls $((r1 - r0)) = $(awk -v c=$((r1 - r0)) -v s="$seconds" 'BEGIN { printf "%.1f", c / s }')/s"
check "under 1 s of CPU an hour" awk -v c="$cpu_hour" 'BEGIN { exit !(c < 1) }'
kill -TERM "$pid"
wait "$pid" || true
tail -n 3 /tmp/client.err
finish
