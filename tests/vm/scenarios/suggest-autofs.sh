#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino suggest's autofs map, served by a real automount: GNU find on the autofs path,
# cold, lists what the server lists, with no loop.
#
# Usage: suggest-autofs.sh MODE
#   full     the server fstab and exports applied, the client's autofs map as printed
#   partial  as full, but the map entry of one snapshot (s3) removed: find must report
#            the loop there (the test can fail)
set -euo pipefail
# shellcheck source=tests/vm/scenarios/lib.sh
. ./lib.sh

mode=${1:?usage: suggest-autofs.sh full|partial}
case $mode in
full | partial) ;;
*) echo "unknown mode $mode" >&2; exit 2 ;;
esac
need_btrfs_ino
command -v automount >/dev/null || { echo "no automount in the VM"; exit 1; }

# Server: the classic layout, exported the way the user report had it.
scratch_btrfs /data
classic_layout /data
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'

# Every block from the state before anything is applied.
for block in server-fstab exports; do
	btrfs-ino suggest -q --server 127.0.0.1 --format "$block" /data/fex >"/tmp/$block" || true
done
versions=(3 4.2)
for v in "${versions[@]}"; do
	btrfs-ino suggest -q --server 127.0.0.1 --client-dir "/mnt/v$v" --format autofs \
		/data/fex >"/tmp/autofs-v$v" || true
done
say "suggested autofs map (vers=3 client)"
sed 's/^/   /' /tmp/autofs-v3

suggest_server_apply /tmp/server-fstab /tmp/exports
# The snapshots, as the suggestion says: btrfs-ino mount's (then exportfs again).
btrfs-ino mount -q /data/fex | sed 's/^/   /'
exportfs -ra
server_truth /data/fex

not() {
	! "$@"
}

# nfs_mounts DIR [OPTION]: how many NFS mounts are at or below DIR (with OPTION).
nfs_mounts() {
	{ findmnt -R -n -t nfs,nfs4 -o OPTIONS "$1" || true; } | grep -c -- "${2-}" || true
}

# elapsed START: seconds since $EPOCHREALTIME was START.
elapsed() {
	local now=$EPOCHREALTIME
	awk -v a="$1" -v b="$now" 'BEGIN { printf "%.1f", b - a }'
}

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	cp "/tmp/autofs-v$v" /etc/auto.btrfs-ino
	chmod 0644 /etc/auto.btrfs-ino
	# The master map line the block's comment asks for.
	master=$(grep -o '"/- /etc/auto\.btrfs-ino"' /etc/auto.btrfs-ino | tr -d '"')
	check "vers=$v: the map names its master map line" test -n "$master"
	# The rig's own additions, on the master map line so that the map stays as printed:
	# the server is this host, where automount would bind-mount the server path instead
	# of mounting it over NFS (nobind); and the NFS version under test.
	echo "$master -nobind,vers=$v" >/etc/auto.master
	if [[ $mode == partial ]]; then
		sed -i '\|^[[:space:]]*/spool/\.snapshot/s3 |d' /etc/auto.btrfs-ino
		# The entry's new last line must not continue it.
		sed -i '$ s/ *\\$//' /etc/auto.btrfs-ino
	fi
	locations=$(grep -c ' 127\.0\.0\.1:/' /etc/auto.btrfs-ino)
	failures_before=$failures
	# In a session of its own: the kernel refuses an autofs mount whose daemon is in
	# process group 0, which is where everything below PID 1 of this VM starts.
	setsid automount -f -v /etc/auto.master >"/tmp/automount-v$v.log" 2>&1 &
	automount_pid=$!
	for ((i = 0; i < 100; i++)); do
		[[ $(findmnt -n -t autofs -o TARGET "$mnt" 2>/dev/null) == "$mnt" ]] && break
		sleep 0.2
	done
	check "vers=$v: automount has its trigger on $mnt" mountpoint -q "$mnt"
	# Cold: only the trigger, nothing mounted over NFS yet.
	check "vers=$v: no NFS mount under $mnt before find" test "$(nfs_mounts "$mnt")" -eq 0
	start=$EPOCHREALTIME
	client_find "$mnt" "v$v"
	say "vers=$v: find took $(elapsed "$start") s; the mounts it triggered:"
	{ findmnt -R -o TARGET,FSTYPE,SOURCE,OPTIONS "$mnt" || true; } | cut -c1-120 | sed 's/^/   /'
	# Every location in the map was mounted over NFS (not bind-mounted), with the version.
	check "vers=$v: find triggered one NFS mount per map location ($locations)" \
		test "$(nfs_mounts "$mnt" "vers=$v,")" -eq "$locations"
	if [[ $mode == partial ]]; then
		check "vers=$v: find reports a loop with s3 missing from the map" test "$find_loops" -gt 0
		check "vers=$v: find misses entries of the server" \
			not lists_server_entries "/tmp/client-v$v.list"
	else
		check_find_like_server "v$v" "$mnt"
	fi
	if [[ $failures -ne $failures_before ]]; then
		diff /tmp/server.list "/tmp/client-v$v.list" | head -n 10 | sed 's/^/   diff: /' || true
		say "automount log (vers=$v)"
		sed 's/^/   /' "/tmp/automount-v$v.log" | tail -n 40
	fi
	kill "$automount_pid"
	wait "$automount_pid" || true
	{ findmnt -R "$mnt" || true; } | sed 's/^/   left after automount stopped: /'
done
say "scenario took ${SECONDS}s"
finish
