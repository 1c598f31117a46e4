#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What the kernel does when a snapshot job deletes a snapshot that btrfs-ino mount mounted
# on its own path (docs: btrfs-ino(1) "mount", README), asserted so that a kernel that
# behaves otherwise shows up:
#   - btrfs subvolume delete PATH and --subvolid ID succeed, and the mount goes with the
#     subvolume;
#   - rm -rf of the mounted snapshot fails with EBUSY at the mount point (after emptying
#     it: rm deletes the files inside first), the mount and the subvolume stay;
#   - a local process working inside does not block the delete;
#   - NFS clients (crossmnt export, the snapshot mounted per the client block) with their
#     cwd or an open file inside do not block it either.  What they see afterwards, and
#     whether btrfs subvolume sync sees the space reclaimed, is printed, not asserted
#     (6.1: they still list it and read the open file; a new open is ESTALE on vers=3,
#     works on 4.2; the subvolume stays pending even after they unmount and nfsd stops);
#   - btrfs-ino mount afterwards: exit 0, no stale mount.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

scratch_btrfs /data
btrfs -q subvolume create /data/vol
echo hi >/data/vol/f
mkdir /data/vol/.snapshot
for s in s1 s2 s3 s4 s5; do
	btrfs -q subvolume snapshot /data/vol "/data/vol/.snapshot/$s"
done
[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
nfs_server_start '/data/vol 127.0.0.1(rw,async,no_subtree_check,crossmnt,no_root_squash)'
btrfs-ino mount -q >/tmp/mount.out
sed 's/^/   /' /tmp/mount.out
check "btrfs-ino mount mounted the five snapshots" test "$(grep -c '^mount ' /tmp/mount.out)" -eq 5

# gone SNAPSHOT: neither a mount point nor a subvolume any more.
gone() {
	! mountpoint -q "/data/vol/.snapshot/$1" 2>/dev/null &&
		! btrfs subvolume list /data | grep -q " path vol/.snapshot/$1\$"
}
deleted() { # SNAPSHOT: the delete command's status was 0 and the snapshot is gone
	local what=$1 rc=$2
	check "$what succeeds (exit $rc)" test "$rc" -eq 0
	check "$what: mount and subvolume are gone" gone "${what##* }"
}

say "btrfs subvolume delete PATH"
rc=0; btrfs subvolume delete /data/vol/.snapshot/s1 || rc=$?
deleted "delete s1" "$rc"

say "btrfs subvolume delete --subvolid ID"
id=$(btrfs inspect-internal rootid /data/vol/.snapshot/s2)
rc=0; btrfs subvolume delete --subvolid "$id" /data || rc=$?
deleted "delete --subvolid s2" "$rc"

say "rm -rf of the mounted snapshot"
rc=0; rm -rf /data/vol/.snapshot/s3 2>/tmp/rm.err || rc=$?
sed 's/^/   /' /tmp/rm.err
check "rm -rf fails (exit $rc)" test "$rc" -ne 0
check "with EBUSY" grep -q 'Device or resource busy' /tmp/rm.err
check "the mount stays" mountpoint -q /data/vol/.snapshot/s3
check "emptied: rm removed the files inside first" test ! -e /data/vol/.snapshot/s3/f

say "a local process working inside"
(cd /data/vol/.snapshot/s4 && exec sleep 300) &
local_pid=$!
sleep 1
rc=0; btrfs subvolume delete /data/vol/.snapshot/s4 || rc=$?
deleted "delete with a local cwd inside s4" "$rc"
kill "$local_pid"

say "NFS clients holding it (mounted per the client block): v3 cwd inside, v4.2 an open file"
for v in 3 4.2; do
	nfs_mount "$v" "/mnt/s5-v$v" 127.0.0.1:/data/vol/.snapshot/s5
	check "vers=$v client reads the snapshot" grep -qx hi "/mnt/s5-v$v/f"
done
(cd /mnt/s5-v3 && exec sleep 300) &
cwd_pid=$!
(exec 3</mnt/s5-v4.2/f && exec sleep 300) &
open_pid=$!
sleep 1
check "the v4.2 client holds the file open" test -e "/proc/$open_pid/fd/3"
id5=$(btrfs inspect-internal rootid /data/vol/.snapshot/s5)
rc=0; btrfs subvolume delete /data/vol/.snapshot/s5 || rc=$?
deleted "delete with NFS clients holding s5" "$rc"
for v in 3 4.2; do
	err=$(ls -a "/mnt/s5-v$v/" 2>&1 >/dev/null || true)
	say "client vers=$v afterwards, ls: ${err:-works}"
done
err=$(cat "/proc/$open_pid/fd/3" 2>&1 >/dev/null || true)
say "v4.2 client reading its open file afterwards: ${err:-works}"
# Whether the cleaner can remove it for good while the clients hold it.  How long
# to wait for it each time: on 6.1 it stays pending through all four waits, and the
# cleaner, when it runs, takes well under a second for a subvolume of one file.
pending_wait=5
rc=0; timeout "$pending_wait" btrfs subvolume sync /data "$id5" >/dev/null || rc=$?
say "btrfs subvolume sync of s5 while clients hold it: exit $rc (124: still pending after $pending_wait s)"
for v in 3 4.2; do
	err=$( (ls -a "/mnt/s5-v$v/" && cat "/mnt/s5-v$v/f") 2>&1 >/dev/null || true)
	say "client vers=$v then, ls and a new open: ${err:-work}"
done
kill "$cwd_pid" "$open_pid" 2>/dev/null || true
wait 2>/dev/null || true
for v in 3 4.2; do
	umount "/mnt/s5-v$v" || umount -l "/mnt/s5-v$v"
done
rc=0; timeout "$pending_wait" btrfs subvolume sync /data "$id5" >/dev/null || rc=$?
say "btrfs subvolume sync of s5 once the clients unmounted it: exit $rc"
if [[ $rc -ne 0 ]]; then
	exportfs -f
	rc=0; timeout "$pending_wait" btrfs subvolume sync /data "$id5" >/dev/null || rc=$?
	say "after exportfs -f (flush nfsd's export cache): exit $rc"
fi
if [[ $rc -ne 0 ]]; then
	rpc.nfsd 0
	rc=0; timeout "$pending_wait" btrfs subvolume sync /data "$id5" >/dev/null || rc=$?
	say "after rpc.nfsd 0 (nfsd stopped): exit $rc"
	rpc.nfsd --grace-time 10 --lease-time 10 4
	nfsd_end_grace
fi

rc=0
btrfs-ino mount -q >/tmp/mount-after.out 2>/tmp/mount-after.err || rc=$?
sed 's/^/   /' /tmp/mount-after.out /tmp/mount-after.err
check "btrfs-ino mount afterwards exits 0 (got $rc)" test "$rc" -eq 0
check "no stale mount below the export" bash -c '! grep -q "//deleted" /proc/self/mountinfo'
check "s3 is still mounted" mountpoint -q /data/vol/.snapshot/s3
finish
