#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino suggest, applied: its server fstab, btrfs-ino mount for the snapshots the
# fstab leaves to it, its exports and its client fstab make GNU find on a cold NFS
# client list what the server lists, with no loop.
#
# Usage: suggest-apply.sh MODE
#   crossmnt  the server fstab, the export line with crossmnt (--format exports)
#   nohide    the server fstab, one export per subvolume (--format exports-nohide)
#   partial   as crossmnt, but one snapshot (s3) unmounted again: audit must still say
#             unsafe and find must still report the loop (the test can fail)
set -euo pipefail
# shellcheck source=tests/vm/scenarios/lib.sh
. ./lib.sh

mode=${1:?usage: suggest-apply.sh crossmnt|nohide|partial}
case $mode in
crossmnt | partial) exports_block='exports' ;;
nohide) exports_block='exports-nohide' ;;
*) echo "unknown mode $mode" >&2; exit 2 ;;
esac
need_btrfs_ino

# Server: the classic layout, exported the way the user report had it.
scratch_btrfs /data
classic_layout /data
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'

# What suggest says, before anything is applied; every block from the same state.
rc=0
btrfs-ino suggest -q --server 127.0.0.1 /data/fex >/tmp/suggest.txt || rc=$?
check "suggest exits 0 having printed its suggestions (got $rc)" test "$rc" -eq 0
for block in server-fstab "$exports_block"; do
	btrfs-ino suggest -q --server 127.0.0.1 --format "$block" /data/fex >"/tmp/$block" || true
done
versions=(3 4.2)
for v in "${versions[@]}"; do
	btrfs-ino suggest -q --server 127.0.0.1 --client-dir "/mnt/v$v" --format client-fstab \
		/data/fex >"/tmp/client-v$v.fstab" || true
done
say "suggested server fstab and exports"
grep -v '^#' /tmp/server-fstab | cut -c1-150
grep -v '^#' "/tmp/$exports_block" | cut -c1-150

check "the server fstab has no line for a snapshot" \
	test -z "$(grep -v '^#' /tmp/server-fstab | grep -F /.snapshot/ || true)"
check "every server fstab line has nofail" \
	test -z "$(grep -v -e '^#' -e '^$' /tmp/server-fstab | grep -v ',nofail 0 0$' || true)"

# The snapshot the partial mode leaves out, on the clients.
if [[ $mode == partial ]]; then
	for v in "${versions[@]}"; do
		sed -i '\|/\.snapshot/s3 |d' "/tmp/client-v$v.fstab"
	done
fi

suggest_server_apply /tmp/server-fstab "/tmp/$exports_block"
# The snapshots, as the suggestion says: btrfs-ino mount's (then exportfs again for
# the per-subvolume exports of the mounts it made).
btrfs-ino mount -q /data/fex | sed 's/^/   /'
[[ $mode == partial ]] && umount /data/fex/spool/.snapshot/s3
exportfs -ra
server_truth /data/fex

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	sed -i "s/ nfs _netdev / nfs _netdev,vers=$v /" "/tmp/client-v$v.fstab"
	mkdir -p "$mnt"
	mount -a -T "/tmp/client-v$v.fstab"
	say "client vers=$v: $(findmnt -R -n -o TARGET "$mnt" | wc -l) NFS mounts under $mnt"
	# Cold: right after mounting, nothing walked yet.
	client_find "$mnt" "v$v"
	if [[ $mode == partial ]]; then
		check "vers=$v: find still reports a loop with s3 unmounted" test "$find_loops" -gt 0
	else
		check_find_like_server "v$v" "$mnt"
	fi
done

# The audit of the applied configuration, on the server.
rc=0
btrfs-ino audit -q /data/fex >/tmp/audit.txt || rc=$?
head -n 1 /tmp/audit.txt | sed 's/^/   /'
if [[ $mode == partial ]]; then
	check "audit still reports the export unsafe (exit 1, got $rc)" test "$rc" -eq 1
	rc=0
	btrfs-ino mount -q --dry-run /data/fex >/tmp/mount-again || rc=$?
	check "btrfs-ino mount still has s3 to mount (exit $rc)" \
		grep -q ' on /data/fex/spool/\.snapshot/s3$' /tmp/mount-again
else
	check "audit reports the export safe (exit 0, got $rc)" test "$rc" -eq 0
	rc=0
	btrfs-ino suggest -q /data/fex >/dev/null || rc=$?
	check "suggest has nothing left to suggest (exit 0, got $rc)" test "$rc" -eq 0
fi

for v in "${versions[@]}"; do
	umount -R "/mnt/v$v"
done
finish
