#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What the client keeper (issue 38) builds on, shown on a real kernel: how a server
# mount below a crossmnt export looks to vers=3 and 4.2 clients before anything
# crossed it (statx's automount and mount-root attributes, st_dev, inode, handle),
# whether an O_PATH or an O_DIRECTORY openat2 triggers the submount, and whether a
# clone of the triggered submount moved onto the entry (submount-probe) outlives
# fs.nfs.nfs_mountpoint_timeout; then what the clients see of it once the server
# deletes the snapshot.  A transcript for reading; it checks only that the clone
# holds.
set -euo pipefail
. ./lib.sh

scratch_btrfs /data
btrfs -q subvolume create /data/vol
fill_tree /data/vol 2 3
mkdir /data/vol/.snapshot
btrfs -q subvolume snapshot -r /data/vol /data/vol/.snapshot/a
btrfs -q subvolume snapshot -r /data/vol /data/vol/.snapshot/b
dev=$(findmnt -n -o SOURCE /data)
for s in a b; do
	mount -o "subvol=vol/.snapshot/$s" "$dev" "/data/vol/.snapshot/$s"
done
findmnt -R /data | sed 's/^/   /'
[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
nfs_server_start '/data/vol 127.0.0.1(rw,async,no_subtree_check,no_root_squash,crossmnt)'
sysctl -w fs.nfs.nfs_mountpoint_timeout=3 2>/dev/null || echo 3 >/proc/sys/fs/nfs/nfs_mountpoint_timeout
for v in 3 4.2; do
	nfs_mount "$v" "/mnt/v$v" 127.0.0.1:/data/vol
	echo 3 >/proc/sys/vm/drop_caches
	say "vers=$v: entry a, untriggered, then opened"
	submount-probe "/mnt/v$v/.snapshot" a || true
	say "vers=$v: stat of b (no trigger): $(stat -c 'dev=%d ino=%i' "/mnt/v$v/.snapshot/b")"
	grep " /mnt/v$v" /proc/self/mountinfo | sed 's/^/   /'
	sleep 8
	say "vers=$v: after 8 s (timeout 3 s)"
	grep " /mnt/v$v" /proc/self/mountinfo | sed 's/^/   /'
	check "vers=$v: the clone of a still holds after the timeout" \
		mountpoint -q "/mnt/v$v/.snapshot/a"
	find "/mnt/v$v" >/tmp/find.out 2>/tmp/find.err || true
	say "vers=$v: find: $(wc -l </tmp/find.out) entries, $(grep -c loop /tmp/find.err || true) loops"
done
say "server: delete a (mounted on its own path: the mount goes with it)"
btrfs -q subvolume delete /data/vol/.snapshot/a
for v in 3 4.2; do
	say "vers=$v after the deletion: ls .snapshot: $(ls "/mnt/v$v/.snapshot" 2>&1 | tr '\n' ' ')"
	say "vers=$v: stat a: $(stat -c 'dev=%d ino=%i' "/mnt/v$v/.snapshot/a" 2>&1 || true)"
	say "vers=$v: the clone of a: $(grep -c " /mnt/v$v/.snapshot/a " /proc/self/mountinfo || true) mount(s) left"
done
finish
