#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The client keeper on snapper's layout (issue 38): snapper keeps the subvolume .snapshots
# inside the subvolume it snapshots, takes each snapshot into a new directory of it,
# .snapshots/N/snapshot (beside N/info.xml), and deletes the oldest N whole.  A new N
# is a directory the keeper has never seen, so it must watch where the N appear.  The
# export /data/vol (crossmnt) holds the subvolume home with a fresh snapper config (an
# empty .snapshots); btrfs-ino mount --watch keeps the server's mounts; vers=3 and 4.2
# clients mounted the export once and run btrfs-ino mount --watch --client, their
# submounts expiring after 3 s.  Four rounds of snapshot-then-delete-the-oldest (the
# first has none to delete): 5 s after each, with the dentry cache dropped and no look
# at the directory before, GNU find on each client lists exactly the server's entries
# with no loop message, and the client has a mount for home, .snapshots and the snapshot
# kept, and none other.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

scratch_btrfs /data
btrfs -q subvolume create /data/vol
btrfs -q subvolume create /data/vol/home
fill_tree /data/vol/home 2 3
btrfs -q subvolume create /data/vol/home/.snapshots
versions=(3 4.2)
rotation_clients
start_keeper server --exports /etc/exports /data/vol
start_keeper client --client /mnt/v3 /mnt/v4.2
snaps=/data/vol/home/.snapshots

# snapper_round N: snapper's timeline step: snapshot N, then the oldest N deleted, the
# subvolume first, then its directory (once the server keeper has let go of the mount).
snapper_round() {
	local n=$1 old=$(($1 - 1)) i
	mkdir "$snaps/$n"
	echo "<snapshot><num>$n</num></snapshot>" >"$snaps/$n/info.xml"
	btrfs -q subvolume snapshot -r /data/vol/home "$snaps/$n/snapshot"
	[[ -d $snaps/$old ]] || return 0
	btrfs -q subvolume delete "$snaps/$old/snapshot"
	for ((i = 0; i < 50; i++)); do
		rm -rf "${snaps:?}/$old" 2>/dev/null && return 0
		sleep 0.1
	done
	check "snapper's directory $old is deleted" test ! -e "$snaps/$old"
}

for n in 1 2 3 4; do
	say "round $n: snapshot .snapshots/$n/snapshot, the oldest deleted"
	snapper_round "$n"
	sleep 5
	server_truth /data/vol
	echo 3 >/proc/sys/vm/drop_caches
	for v in "${versions[@]}"; do
		client_find "/mnt/v$v" "v$v-r$n"
		check_find_like_server "v$v-r$n" "/mnt/v$v"
		check "v$v-r$n: the client mounts home, .snapshots and snapshot $n, no other" \
			diff <(printf "/mnt/v$v/home%s\n" '' /.snapshots "/.snapshots/$n/snapshot") \
			<(findmnt -n -l -o TARGET | grep "^/mnt/v$v/" | sort)
	done
done

stop_keeper client
stop_keeper server
for v in "${versions[@]}"; do
	umount -R "/mnt/v$v" || umount -l "/mnt/v$v"
done
finish
