#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Snapshot rotation under the keeper (issue 25's proof), on a real NFS server:
# btrfs-ino mount --watch runs while a snapshot job takes a snapshot every few
# seconds and deletes the oldest, keeping 3 (as snapper's timeline cleanup
# does), for 5 rounds.  The keeper mounts each new snapshot on the server
# within 5 s (measured: well under one); clients of vers=3 and 4.2, mounted
# once for the whole time (the exports line has crossmnt), then see it as a
# filesystem of its own (st_dev other than its parent's), and GNU find lists
# the server's entries with no loop after each round; exportfs -ra before
# round 3 changes none of that.  At the end no stale mount is left, no fstab
# line or unit was written, and mount -a exits 0.
# A client that looks in the moment between the snapshot and its mount sees
# the plain directory: vers=4.2 notices the new filesystem on its next look,
# vers=3 only once its attribute cache of the directory expires (up to
# acdirmax, 60 s by default); the clients here look after the mount.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

scratch_btrfs /data
btrfs -q subvolume create /data/vol
fill_tree /data/vol 2 3
mkdir /data/vol/.snapshot
[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
: >/etc/fstab
nfs_server_start '/data/vol 127.0.0.1(rw,async,no_subtree_check,no_root_squash,crossmnt)'
versions=(3 4.2)
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v" 127.0.0.1:/data/vol
done

btrfs-ino mount --watch --exports /etc/exports /data/vol >/tmp/watch.out 2>/tmp/watch.err &
watch_pid=$!
for ((i = 0; i < 100; i++)); do
	grep -q ': watching$' /tmp/watch.err && break
	sleep 0.1
done
check "the keeper watches /data/vol" grep -q ': watching$' /tmp/watch.err

# own_fs_within SECONDS DIR: DIR's st_dev differs from its parent's within SECONDS.
own_fs_within() {
	local tenths=$(($1 * 10)) dir=$2 i
	for ((i = 0; i <= tenths; i++)); do
		if [[ -d $dir && $(stat -c %d "$dir" 2>/dev/null) != "$(stat -c %d "$dir/..")" ]]; then
			say "$dir: a filesystem of its own after $(awk -v t="$i" 'BEGIN { printf "%.1f", t / 10 }') s"
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# mounted_within SECONDS DIR: DIR is a mount point on the server within SECONDS.
mounted_within() {
	local t0=$EPOCHREALTIME tenths=$(($1 * 10)) dir=$2 i
	for ((i = 0; i <= tenths * 5; i++)); do
		if mountpoint -q "$dir"; then
			say "$dir: mounted $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s after the snapshot"
			return 0
		fi
		sleep 0.02
	done
	return 1
}

kept=()
for ((round = 1; round <= 5; round++)); do
	snap=/data/vol/.snapshot/r$round
	# The table re-exported mid-rotation, as an admin's edit elsewhere does.
	((round != 3)) || exportfs -ra
	btrfs -q subvolume snapshot -r /data/vol "$snap"
	kept+=("r$round")
	if ((${#kept[@]} > 3)); then
		btrfs -q subvolume delete "/data/vol/.snapshot/${kept[0]}"
		kept=("${kept[@]:1}")
	fi
	check "round $round: the keeper mounts r$round within 5 s" \
		mounted_within 5 "$snap"
	for v in "${versions[@]}"; do
		check "round $round, vers=$v: r$round is a filesystem of its own within 5 s" \
			own_fs_within 5 "/mnt/v$v/.snapshot/r$round"
	done
	server_truth /data/vol
	for v in "${versions[@]}"; do
		client_find "/mnt/v$v" "v$v-r$round"
		check_find_like_server "v$v-r$round" "/mnt/v$v"
	done
	sleep 1
done

check "the keeper still runs" kill -0 "$watch_pid"
kill -TERM "$watch_pid"
rc=0
wait "$watch_pid" || rc=$?
check "SIGTERM ends it with 0 (got $rc)" test "$rc" -eq 0
sed 's/^/   keeper: /' /tmp/watch.out /tmp/watch.err | tail -n 20
check "no stale mount is left" bash -c '! grep -q "//deleted" /proc/self/mountinfo'
check "the snapshots kept, and only they, are mounted" \
	diff <(printf '/data/vol/.snapshot/%s\n' "${kept[@]}" | sort) \
	<(findmnt -R -n -l -o TARGET /data | grep '^/data/vol/' | sort)
check "no fstab line was written" test ! -s /etc/fstab
check "mount -a exits 0" mount -a
for v in "${versions[@]}"; do
	umount -R "/mnt/v$v" || umount -l "/mnt/v$v"
done
finish
