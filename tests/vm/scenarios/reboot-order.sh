#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Reboot order (issue 25's proof), on a real NFS server: the server restarts
# (nfsd and mountd stopped, the exports withdrawn, the btrfs and every mount
# below it undone, the btrfs mounted again as at boot), then does what
# btrfs-ino-mount.service orders: btrfs-ino mount before exportfs -ra, mountd
# and nfsd.  The first clients, vers=3 and 4.2, cold, mounted as suggest's
# client-fstab lines say (one NFS mount per subvolume), see every subvolume:
# GNU find lists the server's entries with no loop, no placeholder served.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

scratch_btrfs /data
classic_layout /data
[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
exports_line='/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash,crossmnt)'
nfs_server_start "$exports_line"
# The clients' lines, as suggest gives them (while the export is unsafe).
for v in 3 4.2; do
	btrfs-ino suggest -q --server 127.0.0.1 --client-dir "/mnt/v$v" --format client-fstab \
		/data/fex >"/tmp/client-v$v.fstab" || true
	sed -i "s/ nfs _netdev / nfs _netdev,vers=$v /" "/tmp/client-v$v.fstab"
done
btrfs-ino mount -q >/tmp/mount-before
mounted=$(findmnt -R -n -l -o TARGET /data | grep -c '^/data/fex/' || true)
say "before the restart: $mounted subvolume mounts below the export"

say "the restart: nfsd and mountd stopped, exports withdrawn, /data unmounted and mounted again"
rpc.nfsd 0
exportfs -ua
kill "$(pidof rpc.mountd)"
umount -R /data
mount -o loop /tmp/btrfs.img /data
check "after it, nothing below the export is mounted" \
	test "$(findmnt -R -n -l -o TARGET /data | grep -c '^/data/fex/' || true)" -eq 0

say "boot order: btrfs-ino mount, then exportfs -ra, mountd and nfsd"
rc=0
btrfs-ino mount -q >/tmp/mount-boot 2>/tmp/mount-boot.err || rc=$?
check "btrfs-ino mount exits 0 (got $rc)" test "$rc" -eq 0
check "it mounts as many subvolumes as before ($mounted)" \
	test "$(grep -c '^mount UUID=' /tmp/mount-boot)" -eq "$mounted"
exportfs -ra
rpc.mountd
rpc.nfsd --grace-time 10 --lease-time 10 4
nfsd_end_grace

server_truth /data/fex
for v in 3 4.2; do
	mkdir -p "/mnt/v$v"
	mount -a -T "/tmp/client-v$v.fstab"
	client_find "/mnt/v$v" "v$v-first"
	check_find_like_server "v$v-first" "/mnt/v$v"
	umount -R "/mnt/v$v" || umount -l "/mnt/v$v"
done
finish
