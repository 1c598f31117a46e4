#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What name_to_handle_at() gives on the server's btrfs and on NFS clients, and where the subvolume id sits in it.
set -euo pipefail
. ./lib.sh

# Usage: nfs-handles.sh [EXPORT_OPTION]   e.g. fsid=7 or fsid=UUID; default: none,
# mountd then picks the fsid itself.
extra=${1:+,$1}

# Server and client as in classic-find-loop, plus the optional export option.
scratch_btrfs /data
classic_layout /data
nfs_server_start "/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash$extra)"
# 4.1 too: it is where the client starts to allow handles (see vers=4.0 below).
versions=(3 4.0 4.1 4.2)
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v"
done

# Paths relative to the export: root, a file and a directory, the nested subvolume,
# a file and a directory in it, snapshot roots (rw and ro), a file in the ro snapshot,
# placeholders (inode 2) that snapshots s2 and s3 hold where spool had the earlier
# snapshots.
paths=(
	.
	README
	docs
	spool
	spool/d0
	spool/d0/f0
	spool/.snapshot/s1
	spool/.snapshot/s2
	spool/.snapshot/s2/d0/f0
	spool/.snapshot/s2/.snapshot/s1
	spool/.snapshot/s3/.snapshot/s2
)

# field LINE KEY: the value of KEY=... in a probe line.
field() {
	sed -n "s/.* $2=\([^ ]*\).*/\1/p" <<<"$1"
}

# The subvolume each path lives in, by btrfs-progs rather than by handle. rootid
# cannot answer for a file in a read-only snapshot (it opens files read-write: EROFS)
# nor for a placeholder (ENOTTY); both live in their parent directory's subvolume.
declare -A rootid
for p in "${paths[@]}"; do
	rootid[$p]=$(btrfs inspect-internal rootid "/data/fex/$p" 2>/dev/null ||
		btrfs inspect-internal rootid "$(dirname "/data/fex/$p")")
done

# le_hex BITS N: N as little-endian bytes, in hex.
le_hex() {
	printf "%0$(($1 / 4))x" "$2" | sed 's/../& /g' | awk '{ for (i = NF; i > 0; i--) printf "%s", $i }'
}

# knfsd's fsid for this export and where that puts the btrfs root_objectid in the
# client's handle (14 bytes of client prefix + 4 of knfsd header + fsid + 8 of objectid).
case $extra in
*fsid=*-*)
	# fsid_type 7: the export root's inode number as a u64, then the given uuid.
	fsid_type=7 root_off=50
	export_fsid=$(le_hex 64 "$(stat -c %i /data/fex)")$(tr -d - <<<"${extra#*fsid=}")
	;;
*fsid=[0-9]*)
	# fsid_type 1: the number as a u32.
	fsid_type=1 root_off=30
	export_fsid=$(le_hex 32 "${extra#*fsid=}")
	;;
*)
	# fsid_type 7, with the 16-byte uuid mountd chose: here the export's statfs
	# f_fsid (btrfs mixes the subvolume id into it) padded with zeros.
	fsid_type=7 root_off=50
	# (stat prints f_fsid without its leading zeros: 16 hex digits here.)
	export_fsid=$(le_hex 64 "$(stat -c %i /data/fex)")$(printf '%016x' "0x$(stat -f -c %i /data/fex)")0000000000000000
	;;
esac
say "server: exports $(exportfs -v | tr -s ' \t\n' ' ')"
say "server: /data/fex on btrfs $(btrfs filesystem show /data | sed -n 's/.*uuid: //p'), f_fsid $(stat -f -c %i /data/fex)"
handle-probe -r /data "${paths[@]/#//data/fex/}" >/tmp/server.probe || true
cat /tmp/server.probe
for p in "${paths[@]}"; do
	line=$(grep "^path=/data/fex/$p " /tmp/server.probe)
	check "server $p: type 0x4d, 20 bytes" test "$(field "$line" type)/$(field "$line" bytes)" = 77/20
	check "server $p: root_objectid at byte 8 is subvolume ${rootid[$p]}" \
		test "$(field "$line" btrfs_root)@$(field "$line" btrfs_root_off)" = "${rootid[$p]}@8"
done

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	say "client vers=$v: $mnt, st_dev $(stat -c %d "$mnt")"
	handle-probe -r "$mnt" "${paths[@]/#/$mnt/}" >"/tmp/v$v.probe" || true
	cat "/tmp/v$v.probe"
	check "vers=$v: every entry has the mount's st_dev" \
		test "$(sed -n 's/.* dev=\([^ ]*\) .*/\1/p' "/tmp/v$v.probe" | sort -u | wc -l)" = 1
	if [[ $v == 4.0 ]]; then
		# Linux 6.1 gives NFSv4.0 mounts no export operations (re-export needs 4.1+).
		check "vers=$v: name_to_handle_at fails with EOPNOTSUPP" \
			test "$(grep -c 'errno=EOPNOTSUPP' "/tmp/v$v.probe")" = "${#paths[@]}"
		continue
	fi
	for p in "${paths[@]}"; do
		line=$(grep "^path=$mnt/$p " "/tmp/v$v.probe")
		[[ $p == . ]] && continue # the export root's fileid is empty (FILEID_ROOT)
		check "vers=$v $p: knfsd fsid is the export's, whatever the subvolume" \
			test "$(field "$line" knfsd_fsid)" = "$export_fsid"
		check "vers=$v $p: knfsd fsid_type $fsid_type, btrfs fileid 0x4d" \
			test "$(field "$line" knfsd_fsid_type)/$(field "$line" knfsd_fileid_type)" = "$fsid_type/0x4d"
		check "vers=$v $p: root_objectid at byte $root_off is subvolume ${rootid[$p]}" \
			test "$(field "$line" btrfs_root)@$(field "$line" btrfs_root_off)" = "${rootid[$p]}@$root_off"
	done
done

# listing_is_stale DIR: ls fails on DIR, saying the handle is stale.
listing_is_stale() {
	! ls -A "$1" >/dev/null 2>/tmp/ls.err && grep -q 'Stale file handle' /tmp/ls.err
}

say "placeholders on the clients: stat works (inode 2, the mount's st_dev); reading them is ESTALE"
for v in "${versions[@]}"; do
	for p in spool/.snapshot/s2/.snapshot/s1 spool/.snapshot/s3/.snapshot/s2; do
		check "vers=$v $p: st_dev $(stat -c %d "/mnt/v$v"), st_ino 2" \
			test "$(stat -c %d:%i "/mnt/v$v/$p")" = "$(stat -c %d "/mnt/v$v"):2"
		check "vers=$v $p: cannot be listed: Stale file handle" \
			listing_is_stale "/mnt/v$v/$p"
	done
done

# reopen_result PROBE_FILE PATH: what open_by_handle_at gave for PATH's handle.
reopen_result() {
	sed -n "s#^reopen=\(/data/fex\|/mnt/v[0-9.]*\)/$2 result=##p" "$1"
}

say "handles resolved again after dropping caches"
placeholder() {
	[[ $1 == */.snapshot/*/.snapshot/* ]]
}
for p in "${paths[@]}"; do
	# A placeholder's handle names inode 2 of the snapshot holding it, which has
	# no such inode on disk.
	if placeholder "$p"; then
		want=ESTALE
	else
		want=OK
	fi
	check "server $p: open_by_handle_at gives $want" test "$(reopen_result /tmp/server.probe "$p")" = "$want"
	# On the clients only files and placeholders are deterministic: directories must
	# be reconnected to the export root by name, which under nested subvolumes fails
	# or not depending on what is still cached (see the table).
	if placeholder "$p" || [[ $p == README || $p == */f0 ]]; then
		for v in "${versions[@]}"; do
			[[ $v == 4.0 ]] && continue
			check "vers=$v $p: open_by_handle_at gives $want" \
				test "$(reopen_result "/tmp/v$v.probe" "$p")" = "$want"
		done
	fi
done

say "summary: open_by_handle_at after dropping caches"
printf '%-34s %-8s %-8s %-8s %-8s %-8s\n' path server v3 v4.0 v4.1 v4.2
for p in "${paths[@]}"; do
	printf '%-34s' "$p"
	for f in /tmp/server.probe /tmp/v{3,4.0,4.1,4.2}.probe; do
		r=$(reopen_result "$f" "$p")
		printf ' %-8s' "${r:--}"
	done
	printf '\n'
done

for v in "${versions[@]}"; do
	umount "/mnt/v$v"
done
finish
