#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Snapshot rotation as the clients live it (issues 25 and 38), on a real NFS server: the
# export /data/vol (crossmnt) holds the subvolume spool, and a snapshot job takes a
# snapshot of spool into /data/vol/.snapshot and deletes the oldest, keeping 3 (as
# snapper's timeline cleanup does).  btrfs-ino mount --watch keeps the server's mounts;
# vers=3 and 4.2 clients mounted the export once, and their NFS submounts expire after
# 3 s (fs.nfs.nfs_mountpoint_timeout, 500 s by default: a night's idle).
# 1. Without the client keeper, GNU find as the first access after a snapshot (dentry
#    cache dropped, submounts expired) lists what the server does not: the loop of
#    issue 38.  So the checks below can fail.
# 2. With btrfs-ino mount --watch --client on both mounts, six rounds of
#    snapshot-then-delete-the-oldest: 5 s after each snapshot, with the dentry cache
#    dropped and no look at the directory before, GNU find on each client lists exactly
#    the server's entries with no error and no loop, du -s gives the server's total, and
#    tar keeps the hard links the server's tar keeps; no tool meets ESTALE from a deleted
#    snapshot, and the client has a mount for each snapshot kept and none for the others.
# SIGTERM ends the keepers with 0.  Argument "without-client-keeper": part 2 runs
# without the client keeper (the run must then fail: see part 1).
set -euo pipefail
. ./lib.sh
need_btrfs_ino
mode=$(cat args 2>/dev/null || echo with-client-keeper)

scratch_btrfs /data
btrfs -q subvolume create /data/vol
btrfs -q subvolume create /data/vol/spool
fill_tree /data/vol/spool 3 4
mkdir /data/vol/.snapshot
versions=(3 4.2)
rotation_clients

# snapshot NAME: the snapshot job's step, and the server keeper's mount of it.
snapshot() {
	btrfs -q subvolume snapshot -r /data/vol/spool "/data/vol/.snapshot/$1"
	kept+=("$1")
	if ((${#kept[@]} > 3)); then
		btrfs -q subvolume delete "/data/vol/.snapshot/${kept[0]}"
		deleted=${kept[0]}
		kept=("${kept[@]:1}")
	fi
}

# cold_tools TAG: 5 s after the snapshot, the dentry cache dropped, GNU find as the
# first access on each client, then du -s and tar; the server's answers beside them.
cold_tools() {
	local tag=$1 v
	sleep 5
	server_truth /data/vol
	du -s /data/vol | cut -f1 >/tmp/server.du
	tar -cf - -C /data/vol . 2>/dev/null | tar -tvf - | grep -o ' [^ ]* link to .*' | sort >/tmp/server.links
	echo 3 >/proc/sys/vm/drop_caches
	for v in "${versions[@]}"; do
		client_find "/mnt/v$v" "v$v-$tag"
		# shellcheck disable=SC2154 # set by client_find (lib.sh)
		find_rcs[$v]=$find_rc find_loop_counts[$v]=$find_loops
		du -s "/mnt/v$v" 2>"/tmp/du-v$v.err" | cut -f1 >"/tmp/du-v$v" || true
		tar -cf - -C "/mnt/v$v" . 2>"/tmp/tar-v$v.err" | tar -tvf - |
			grep -o ' [^ ]* link to .*' | sort >"/tmp/links-v$v" || true
	done
}

kept=()
deleted=
declare -A find_rcs find_loop_counts
start_keeper server --exports /etc/exports /data/vol
say "1. no client keeper: a snapshot, then a cold find"
snapshot r0
cold_tools r0
for v in "${versions[@]}"; do
	check "without the client keeper, vers=$v: cold find does not list the server's entries" \
		bash -c "! diff -q /tmp/server.list /tmp/client-v$v-r0.list >/dev/null"
done

say "2. $mode: six rounds of rotation"
if [[ $mode != without-client-keeper ]]; then
	start_keeper client --client /mnt/v3 /mnt/v4.2
	# The submounts part 1's find made expire; the keeper's mounts take their place.
	sleep 7
fi
for ((round = 1; round <= 6; round++)); do
	deleted=
	snapshot "r$round"
	cold_tools "r$round"
	for v in "${versions[@]}"; do
		tag="v$v-r$round"
		check "$tag: no loop message" test "${find_loop_counts[$v]}" -eq 0
		check "$tag: find exits 0 with no error (no ESTALE)" \
			test "${find_rcs[$v]}" -eq 0 -a ! -s "/tmp/find-$tag.err"
		check "$tag: find lists exactly the server's entries" \
			lists_server_entries "/tmp/client-$tag.list"
		check "$tag: du -s is the server's ($(cat /tmp/server.du))" \
			diff -q /tmp/server.du "/tmp/du-v$v"
		check "$tag: tar keeps the server's hard links ($(wc -l </tmp/server.links))" \
			diff -q /tmp/server.links "/tmp/links-v$v"
		check "$tag: du and tar met no error" \
			test ! -s "/tmp/du-v$v.err" -a ! -s "/tmp/tar-v$v.err"
		[[ -z $deleted ]] || check "$tag: no mount is left on the deleted $deleted" \
			bash -c "! grep -q ' /mnt/v$v/.snapshot/$deleted ' /proc/self/mountinfo"
	done
done

for v in "${versions[@]}"; do
	check "vers=$v: the client has a mount for each snapshot kept and for spool, no other" \
		diff <(printf "/mnt/v$v/%s\n" spool "${kept[@]/#/.snapshot/}" | sort) \
		<(findmnt -n -l -o TARGET | grep "^/mnt/v$v/" | sort)
done
[[ $mode == without-client-keeper ]] || stop_keeper client
stop_keeper server
check "no stale mount is left on the server" bash -c '! grep -q "//deleted" /proc/self/mountinfo'
for v in "${versions[@]}"; do
	umount -R "/mnt/v$v" || umount -l "/mnt/v$v"
done
finish
