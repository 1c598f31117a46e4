#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The classic report: GNU find over an NFS-exported btrfs with nested subvolumes says "File system loop detected".
set -euo pipefail
. ./lib.sh

# Server: btrfs at /data, subvolume fex exported, nested subvolume spool with snapshots.
scratch_btrfs /data
classic_layout /data
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'

# Client: the same export mounted three times, one NFS version each.
versions=(3 4.0 4.2)
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v"
done
findmnt -t nfs,nfs4 -o TARGET,SOURCE,FSTYPE,OPTIONS | cut -c1-120

# The server's own view is the truth the clients are compared with.
server_count=$(find /data/fex | wc -l)
# What the clients are expected to list: everything but spool and what is under it
# (find reports the loop at spool and neither prints nor enters it).
find /data/fex -path /data/fex/spool -prune -o -print | sed 's|^/data/fex||' | sort >/tmp/expected
say "server: find /data/fex lists $server_count entries, $(wc -l </tmp/expected) outside spool"
stat -c '   server %n: st_dev %d, st_ino %i' /data/fex /data/fex/spool /data/fex/spool/.snapshot/s1

# At least "far fewer": the spool subtree alone is most of the export.
far_fewer() {
	[[ $(($1 * 2)) -lt $server_count ]]
}
has_loop_message() {
	grep -q 'File system loop detected' "$1"
}
# $1: find's output under mount point $2, compared path by path with the server's.
lists_exactly_outside_spool() {
	sed "s|^$2||" "$1" | sort | diff -u /tmp/expected - >/dev/null
}

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	rc=0
	find "$mnt" >"/tmp/find-v$v.out" 2>"/tmp/find-v$v.err" || rc=$?
	count=$(wc -l <"/tmp/find-v$v.out")
	loops=$(grep -c 'File system loop detected' "/tmp/find-v$v.err" || true)
	say "client vers=$v: find $mnt exits $rc, lists $count entries, $loops loop message(s)"
	sed "s/^/   stderr: /" "/tmp/find-v$v.err" | head -n 5
	stat -c "   client %n: st_dev %d, st_ino %i" "$mnt" "$mnt/spool"
	check "vers=$v: find reports a file system loop" has_loop_message "/tmp/find-v$v.err"
	check "vers=$v: find exits non-zero" test "$rc" -ne 0
	check "vers=$v: client lists far fewer entries ($count) than the server ($server_count)" \
		far_fewer "$count"
	check "vers=$v: client lists exactly the server's entries outside spool" \
		lists_exactly_outside_spool "/tmp/find-v$v.out" "$mnt"
done

say "summary"
printf '%-8s %8s %8s %6s\n' version server client loops
for v in "${versions[@]}"; do
	printf '%-8s %8s %8s %6s\n' "$v" "$server_count" "$(wc -l <"/tmp/find-v$v.out")" \
		"$(grep -c 'File system loop detected' "/tmp/find-v$v.err" || true)"
done

for v in "${versions[@]}"; do
	umount "/mnt/v$v"
done
finish
