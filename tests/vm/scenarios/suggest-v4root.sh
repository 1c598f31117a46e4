#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino suggest against a server with an NFSv4 pseudo-root (fsid=0 on /data): its
# client fstab lines mount below the pseudo-root with vers=4 and by server path with
# vers=3, and GNU find on either cold client lists what the server lists, with no loop;
# the server path does not mount under NFSv4 (what the lines said before).
set -euo pipefail
. ./lib.sh
need_btrfs_ino

# Server: the classic layout, /data the pseudo-root and /data/fex exported below it.
scratch_btrfs /data
classic_layout /data
nfs_server_start '/data 127.0.0.1(ro,fsid=0,no_subtree_check)' \
	'/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'

rc=0
btrfs-ino suggest -q --server 127.0.0.1 --format client-fstab --client-dir /mnt/v4 \
	/data/fex >/tmp/client-v4 || rc=$?
check "suggest exits 0 having printed its suggestions (got $rc)" test "$rc" -eq 0
btrfs-ino suggest -q --server 127.0.0.1 --format client-fstab --client-dir /mnt/v3 \
	/data/fex >/tmp/client-v3 || true
for block in server-fstab exports; do
	btrfs-ino suggest -q --server 127.0.0.1 --format "$block" /data/fex >"/tmp/$block" || true
done
say "suggested client fstab"
sed 's/^/   /' /tmp/client-v4 | cut -c1-120
# The active lines (NFSv4), and the commented NFSv3 ones made active.
grep -v '^#' /tmp/client-v4 >/tmp/client-v4.fstab
sed -n 's/^#\(127\.0\.0\.1:\)/\1/p' /tmp/client-v3 >/tmp/client-v3.fstab
check "the NFSv4 lines pin vers=4 and name /fex" grep -q '^127\.0\.0\.1:/fex /mnt/v4 nfs _netdev,vers=4 ' /tmp/client-v4.fstab
check "the NFSv3 lines pin vers=3 and name /data/fex" grep -q '^127\.0\.0\.1:/data/fex /mnt/v3 nfs _netdev,vers=3 ' /tmp/client-v3.fstab

# The exports block as an admin applies it: each "replace line N of F" on /etc/exports.
awk -v file=/etc/exports '
	FNR == NR {
		if (want) { text[first] = $0; want = 0; next }
		if ($0 ~ /^# replace lines? [0-9]+(-[0-9]+)? of / && $(NF - 1) == file) {
			split($4, r, "-"); first = r[1] + 0; last = (2 in r) ? r[2] + 0 : first
			for (i = first; i <= last; i++) gone[i] = 1
			want = 1
		}
		next
	}
	FNR in text { print text[FNR] }
	!(FNR in gone) { print }' /tmp/exports /etc/exports >/tmp/exports.applied
grep -v '^#' /tmp/exports.applied >/tmp/exports.lines
suggest_server_apply /tmp/server-fstab /tmp/exports.lines
# The snapshots, as the suggestion says: btrfs-ino mount's (then exportfs again).
btrfs-ino mount -q /data/fex | sed 's/^/   /'
exportfs -ra
check "the pseudo-root line is kept" grep -q '^/data 127.0.0.1(ro,fsid=0,no_subtree_check)$' /etc/exports
server_truth /data/fex

not_mounting() {
	if mount "$@" 2>/tmp/wrong.err; then
		umount "${@: -1}"
		return 1
	fi
	sed 's/^/   mount: /' /tmp/wrong.err
}
mkdir -p /mnt/wrong
check "NFSv4 cannot mount the server path below the pseudo-root" \
	not_mounting -t nfs -o vers=4.2 127.0.0.1:/data/fex /mnt/wrong

for v in 4 3; do
	mkdir -p "/mnt/v$v"
	mount -a -T "/tmp/client-v$v.fstab"
	say "client vers=$v: $(findmnt -R -n -o TARGET "/mnt/v$v" | wc -l) NFS mounts"
	findmnt -R -n -o TARGET,SOURCE,OPTIONS "/mnt/v$v" | head -n 3 | cut -c1-120 | sed 's/^/   /'
	check "vers=$v: every line mounted with vers=$v" test \
		"$(findmnt -R -n -t nfs,nfs4 -o OPTIONS "/mnt/v$v" | grep -c "vers=$v")" -eq \
		"$(wc -l <"/tmp/client-v$v.fstab")"
	client_find "/mnt/v$v" "v$v"
	check_find_like_server "v$v" "/mnt/v$v"
	umount -R "/mnt/v$v"
done
say "scenario took ${SECONDS}s"
finish
