#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino walk on clients whose handles carry knfsd fsid types 6 and 0: each entry still gets the server's subvolid.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

# Usage: walk-decodes-fsid-types.sh uuid16|dev
#   uuid16  /data, a filesystem root, exported as mountd does it (a uuid): knfsd uses
#           fsid type 6 (FSID_UUID16, 16 bytes) for a root export, 7 for any other.
#   dev     the same export without a uuid: knfsd falls back to fsid type 0 (FSID_DEV,
#           8 bytes: major/minor, then the export root's inode). mountd always sends a
#           uuid for btrfs (its statfs f_fsid), so the export and its fsid key are
#           written into the kernel's caches here, as mountd would write them, minus the
#           uuid; NFSv3's MOUNT call would rewrite them, so only NFSv4 clients are used.
mode=${1:?usage: walk-decodes-fsid-types.sh uuid16|dev}
case $mode in
uuid16) fsid_type=6 versions=(3 4.2) ;;
dev) fsid_type=0 versions=(4.2 4.1) ;;
*) echo "unknown mode $mode" >&2; exit 2 ;;
esac

scratch_btrfs /data
classic_layout /data
# A file beside fex: the export root's handle names no inode (FILEID_ROOT), so the walk
# takes its subvolume from a child that is not a subvolume root.
echo top >/data/top
nfs_server_start '/data 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'

if [[ $mode == dev ]]; then
	# A first mount makes mountd create the client's auth domain; the entries below name it.
	nfs_mount 4.2 /mnt/prime 127.0.0.1:/data
	umount /mnt/prime
	expiry=$(($(date +%s) + 3600))
	# Flags: async (0x10), wdelay (0x20), no_subtree_check (0x400); anon 65534; no fsid=.
	printf '127.0.0.1 /data %d %d 65534 65534 0\n' "$expiry" $((0x430)) \
		>/proc/net/rpc/nfsd.export/channel
	# FSID_DEV: htonl(major << 16 | minor) of the filesystem (mountinfo's device), then
	# the export root's inode as a u32 in host order.
	dev=$(awk '$5 == "/data" { print $3 }' /proc/self/mountinfo)
	ino=$(stat -c %i /data)
	fsid=$(printf '%04x%04x' "${dev%%:*}" "${dev##*:}")$(printf '%08x' "$ino" |
		sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", $i }')
	say "server: export /data ($dev) without uuid, fsid key 0 \\x$fsid"
	printf '127.0.0.1 0 \\x%s %d /data\n' "$fsid" "$expiry" >/proc/net/rpc/nfsd.fh/channel
	grep -F /data /proc/net/rpc/nfsd.export/content | sed 's/^/   /'
fi
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v" 127.0.0.1:/data
done

# Expectations, every version:
#   - the handles the client holds carry fsid type $fsid_type (read by handle-probe, which
#     decodes them independently of btrfs-ino);
#   - btrfs-ino walk of the client mount gives every entry the server's subvolid for the
#     same path (the server's walk of /data, run here, is the reference; btrfs
#     inspect-internal rootid agrees with it in the root suite), from the handle
#     (source nfs_handle), and no entry is identity_uncertain.
# Files probed in each subvolume: with fsid type 0 an NFSv4 client sees each subvolume as
# a file system of its own (knfsd reports the subvolume's st_dev as its fsid) and mounts
# it on demand, so a directory's handle is not always at hand.
paths=(top fex/README fex/spool/d0/f0 fex/spool/.snapshot/s1/d0/f0 fex/spool/.snapshot/s2/d1/f1)
say "server: btrfs-ino walk --json /data"
btrfs-ino walk --json /data >/tmp/server.json || true
walk_table /data /tmp/server.json >/tmp/server.tsv
for p in "${paths[@]}"; do
	say "   $p: subvolume $(btrfs inspect-internal rootid "/data/$p" 2>/dev/null ||
		btrfs inspect-internal rootid "$(dirname "/data/$p")")"
done

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	handle-probe "${paths[@]/#/$mnt/}" >"/tmp/v$v.probe" || true
	sed 's/ hex=[^ ]*//' "/tmp/v$v.probe" | cut -c1-200
	check "vers=$v: every probed handle has knfsd fsid type $fsid_type" \
		test "$(grep -c " knfsd_fsid_type=$fsid_type " "/tmp/v$v.probe")" -eq "${#paths[@]}"

	rc=0
	btrfs-ino walk --json "$mnt" >"/tmp/v$v.json" 2>"/tmp/v$v.err" || rc=$?
	walk_table "$mnt" "/tmp/v$v.json" >"/tmp/v$v.tsv"
	say "client vers=$v: walk exits $rc, $(wc -l <"/tmp/v$v.tsv") records"
	walk_records "/tmp/v$v.json" "${paths[@]/#/$mnt/}" | sed 's/^/   /' | cut -c1-200
	check "vers=$v: as many entries as the server's walk (placeholders aside)" \
		test "$(walk_rows "/tmp/v$v.tsv" 'event == "entry" && ino != 2' | wc -l)" -eq \
		"$(walk_rows /tmp/server.tsv 'event == "entry" && ino != 2' | wc -l)"
	check "vers=$v: no entry is identity_uncertain" \
		test "$(walk_rows "/tmp/v$v.tsv" 'has("identity_uncertain")' | wc -l)" -eq 0
	check "vers=$v: every entry's source is nfs_handle" \
		test "$(walk_rows "/tmp/v$v.tsv" 'event == "entry" && source != "nfs_handle"' | wc -l)" -eq 0
	mismatched=$(awk -F'\t' 'NR == FNR { if ($2 == "entry") sv[$1] = $5; next }
		$2 == "entry" && sv[$1] != $5 { print $1 ": server " sv[$1] ", client " $5 }' \
		/tmp/server.tsv "/tmp/v$v.tsv")
	head -n 5 <<<"$mismatched" | sed 's/^/   mismatch: /'
	check "vers=$v: every entry has the server's subvolid for its path" test -z "$mismatched"
done

for v in "${versions[@]}"; do
	umount "/mnt/v$v"
done
finish
