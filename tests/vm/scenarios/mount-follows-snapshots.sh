#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino mount on a real NFS server, the classic layout exported plain, then with the
# exports line suggest prints (crossmnt) applied:
#   1. it mounts every subvolume and snapshot btrfs lists below the export (never a
#      placeholder); GNU find on cold vers=3 and 4.2 clients (client-fstab lines) lists
#      the server's entries with no loop;
#   2. a new snapshot below the export; btrfs-ino mount again mounts it alone; the clients,
#      after mounting its client line, list the new count with no loop;
#   3. the snapshot deleted the way a snapshot job does (btrfs subvolume delete) while the
#      clients have it mounted: the delete succeeds, btrfs-ino mount leaves no stale mount
#      and reports nothing failed; the clients get ESTALE there until they unmount it.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

scratch_btrfs /data
classic_layout /data
# mountd follows crossmnt through /etc/mtab (see suggest_server_apply).
[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'
versions=(3 4.2)

# subvols_below DIR: the subvolumes btrfs lists below DIR (on the top level /data), sorted.
subvols_below() {
	btrfs subvolume list /data | sed 's|^.* path |/data/|' | grep "^$1/" | sort
}
# mounts_below DIR: the mount points below DIR, sorted.
mounts_below() {
	findmnt -R -n -l -o TARGET /data | grep "^$1/" | sort || true
}
# run_mount TAG: btrfs-ino mount, output in /tmp/mount-TAG, status in mount_rc.
run_mount() {
	mount_rc=0
	btrfs-ino mount -q >"/tmp/mount-$1" 2>"/tmp/mount-$1.err" || mount_rc=$?
	say "btrfs-ino mount ($1) exits $mount_rc"
	sed 's/^/   /' "/tmp/mount-$1" "/tmp/mount-$1.err"
}
# client_fstab TAG: suggest's client lines for each version (while the export is unsafe).
client_fstab() {
	local v
	for v in "${versions[@]}"; do
		btrfs-ino suggest -q --server 127.0.0.1 --client-dir "/mnt/v$v" --format client-fstab \
			/data/fex >"/tmp/client-v$v-$1.fstab" || true
		sed -i "s/ nfs _netdev / nfs _netdev,vers=$v /" "/tmp/client-v$v-$1.fstab"
	done
}
# finds_like_server TAG: GNU find on each client lists what the server lists, no loop.
finds_like_server() {
	local v
	server_truth /data/fex
	for v in "${versions[@]}"; do
		client_find "/mnt/v$v" "v$v-$1"
		check_find_like_server "v$v-$1" "/mnt/v$v"
	done
}

say "1. exported plain: btrfs-ino mount"
client_fstab plain
run_mount first
check "exit 0, nothing failed" test "$mount_rc" -eq 0
check "one line per subvolume below the export" \
	test "$(grep -c '^mount UUID=' /tmp/mount-first)" -eq "$(subvols_below /data/fex | wc -l)"
check "every subvolume and snapshot is mounted on its own path" \
	diff <(subvols_below /data/fex) <(mounts_below /data/fex)
# no_placeholder_mounted: find's inode-2 directories exist and none is a mount point.
no_placeholder_mounted() {
	local dir n=0
	while IFS= read -r dir; do
		n=$((n + 1))
		! mountpoint -q "$dir" || return 1
	done < <(find /data/fex -type d -inum 2)
	say "$n placeholder(s), none mounted on"
	((n > 0))
}
check "no placeholder is a mount point" no_placeholder_mounted
check "it says clients need crossmnt" grep -q 'has no crossmnt' /tmp/mount-first
check "it says clients that looked before may need to remount" \
	grep -q 'may need to remount' /tmp/mount-first

say "then the exports line suggest prints (crossmnt), exportfs -ra"
btrfs-ino suggest -q --format exports /data/fex >/tmp/exports || true
grep -v '^#' /tmp/exports >/etc/exports
exportfs -ra
exportfs -v | sed 's/^/   /' | cut -c1-150
check "the exports line has crossmnt" grep -q crossmnt /etc/exports
for v in "${versions[@]}"; do
	mkdir -p "/mnt/v$v"
	mount -a -T "/tmp/client-v$v-plain.fstab"
done
finds_like_server cold

say "2. a new snapshot below the export"
btrfs -q subvolume snapshot /data/fex/spool /data/fex/spool/.snapshot/s4
s4=$(btrfs inspect-internal rootid /data/fex/spool/.snapshot/s4)
client_fstab s4
run_mount s4
check "exit 0" test "$mount_rc" -eq 0
check "only the new snapshot is mounted" \
	test "$(grep -E '^(mount|umount) ' /tmp/mount-s4)" = \
	"mount UUID=$(btrfs filesystem show /data | sed -n 's/.*uuid: //p') subvolid=$s4 on /data/fex/spool/.snapshot/s4"
check "every subvolume is mounted on its own path" \
	diff <(subvols_below /data/fex) <(mounts_below /data/fex)
for v in "${versions[@]}"; do
	mount -a -T "/tmp/client-v$v-s4.fstab"
done
finds_like_server s4

say "3. the snapshot deleted as a snapshot job does, clients still holding it"
rc=0
btrfs subvolume delete /data/fex/spool/.snapshot/s4 || rc=$?
check "btrfs subvolume delete of the mounted, NFS-mounted snapshot succeeds (got $rc)" test "$rc" -eq 0
check "its mount went with it" bash -c '! mountpoint -q /data/fex/spool/.snapshot/s4'
run_mount deleted
check "btrfs-ino mount exits 0, nothing failed" test "$mount_rc" -eq 0
check "and prints no failure" test ! -s /tmp/mount-deleted.err
check "no stale mount is left below the export" \
	bash -c '! grep -q "//deleted" /proc/self/mountinfo'
check "every subvolume is mounted on its own path" \
	diff <(subvols_below /data/fex) <(mounts_below /data/fex)
for v in "${versions[@]}"; do
	err=$(ls -a "/mnt/v$v/spool/.snapshot/s4" 2>&1 >/dev/null || true)
	say "client vers=$v: ls of its s4 mount after the delete: ${err:-works}"
	umount -l "/mnt/v$v/spool/.snapshot/s4" || true
done
finds_like_server deleted

for v in "${versions[@]}"; do
	umount -R "/mnt/v$v"
done
finish
