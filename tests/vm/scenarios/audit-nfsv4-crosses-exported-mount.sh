#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --nfsv4 against reality: an NFSv4 client crosses into a server mount that is itself exported (without nohide), an NFSv3 client does not.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

# Server: btrfs at /data; subvolume fex exported without nohide or crossmnt; subvolume
# other mounted (subvol=other) on fex/ext and exported too, also without nohide. The
# directory it covers holds a file, so each side of the mount shows in a listing.
scratch_btrfs /data
btrfs -q subvolume create /data/fex
btrfs -q subvolume create /data/other
mkdir -p /data/fex/a/b /data/fex/ext /data/other/x/y
touch /data/fex/a/f /data/fex/a/b/g /data/fex/ext/covered /data/other/x/y/z /data/other/w
mount -o subvol=other "$(findmnt -n -o SOURCE /data)" /data/fex/ext
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)' \
	'/data/fex/ext 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'
versions=(3 4.2)
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v"
done

# Expectations (knfsd's nfsd_cross_mnt(): an NFSv4 client crosses into any exported mount
# point, NFSv3 only with nohide or crossmnt, else it is served the covered directory):
#   - audit --nfsv4 of /data/fex: the mount on ext is a client filesystem of its own (view
#     nfsv4), and its entries and client filesystems are what GNU find on the vers=4.2
#     client lists and the distinct st_dev it shows;
#   - the NFSv3 model (no --nfsv4): the mount is hidden, and its counts are those of the
#     vers=3 client (the covered directory's own content is not audited: the server walk
#     cannot see under a mount, so only the server listing without it is compared).
declare -A model=([3]="" [4.2]=--nfsv4) view=([3]=hidden [4.2]=nfsv4) name=([3]=nfsv3 [4.2]=nfsv4)
for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	rc=0
	# shellcheck disable=SC2086 # empty for the NFSv3 model
	btrfs-ino audit --json -q ${model[$v]} --exports /etc/exports /data/fex >"/tmp/audit-v$v.json" || rc=$?
	jq -c '{model} + (.exports[0] | {entries, client_filesystems, submounts: [.submounts[] | .view]})' \
		"/tmp/audit-v$v.json" | sed 's/^/   audit: /'
	find "$mnt" -printf '%D %p\n' >"/tmp/find-v$v.out" 2>"/tmp/find-v$v.err" || true
	sed "s|^[0-9]* $mnt||" "/tmp/find-v$v.out" | LC_ALL=C sort | tr '\n' ' ' | sed 's/^/   find: /'
	echo
	check "vers=$v: audit, model ${name[$v]}, exits 0 (nothing collides)" test "$rc" -eq 0
	check "vers=$v: the audit's model is ${name[$v]}" \
		test "$(jq -r .model "/tmp/audit-v$v.json")" = "${name[$v]}"
	check "vers=$v: the mount on ext is seen as ${view[$v]}" \
		test "$(jq -r '[.exports[0].submounts[].view] | join(",")' "/tmp/audit-v$v.json")" = "${view[$v]}"
	check "vers=$v: audit entries = the entries find lists on the client" \
		test "$(jq '.exports[0].entries' "/tmp/audit-v$v.json")" -eq \
		"$(grep -vc "^[0-9]* $mnt/ext/covered$" "/tmp/find-v$v.out")"
	check "vers=$v: audit client filesystems = the distinct st_dev find shows" \
		test "$(jq '.exports[0].client_filesystems' "/tmp/audit-v$v.json")" -eq \
		"$(cut -d' ' -f1 "/tmp/find-v$v.out" | sort -u | wc -l)"
	check "vers=$v: find reports no error" test ! -s "/tmp/find-v$v.err"
done
# What each client sees at ext: the other subvolume (vers=4.2), the covered directory (vers=3).
check "vers=4.2: ext shows the mounted subvolume" test -e /mnt/v4.2/ext/x/y/z -a ! -e /mnt/v4.2/ext/covered
check "vers=3: ext shows the covered directory" test -e /mnt/v3/ext/covered -a ! -e /mnt/v3/ext/x

for v in "${versions[@]}"; do
	umount "/mnt/v$v"
done
finish
