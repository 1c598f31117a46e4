#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino exec on NFS clients of the plain classic export: find, du, tar and rsync as on the server, and broken without it.
set -euo pipefail
. ./lib.sh
need_btrfs_ino
start=$SECONDS
# run-vm.sh ships the preload object here (mkinitramfs.sh), not where the binary's
# install-relative lookup would find it.
export BTRFS_INO_EXEC_PRELOAD=/usr/local/lib/btrfs-ino/libbtrfsino-exec.so

# Server: btrfs at /data, the classic layout (fex exported as is: no crossmnt, no
# mounts; spool nested in it, with snapshots s1, s2 (read-only), s3 under
# spool/.snapshot; s2 and s3 hold placeholders knfsd cannot serve).
scratch_btrfs /data
classic_layout /data
# And a tmpfs, exported too: NFS but not btrfs, which exec must leave alone.
mkdir -p /srv/plain
mount -t tmpfs -o size=16M tmpfs /srv/plain
fill_tree /srv/plain 3 4
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)' \
	'/srv/plain 127.0.0.1(rw,async,no_subtree_check,no_root_squash,fsid=77)'

# Client: the export mounted as users do, vers=3 and 4.2 (handles readable), and 4.0
# (no handles: exec must say it cannot help).
versions=(3 4.2)
for v in "${versions[@]}" 4.0; do
	nfs_mount "$v" "/mnt/v$v"
done
nfs_mount 3 /mnt/plain 127.0.0.1:/srv/plain
findmnt -t nfs,nfs4 -o TARGET,SOURCE,FSTYPE,OPTIONS | cut -c1-120
say "server and client mounts ready after $((SECONDS - start))s"

# The server's truth, from its own tools.
server_truth /data/fex
server_du=$(du -s /data/fex | cut -f1)
# Regular files distinct on the server: (st_dev, st_ino) tells subvolumes apart there.
server_files=$(find /data/fex -type f | wc -l)
server_distinct=$(find /data/fex -type f -printf '%D:%i\n' | sort -u | wc -l)
tar -cf /tmp/server.tar -C /data/fex .
server_links=$(tar -tvf /tmp/server.tar | awk '$1 ~ /^h/' | wc -l)
say "server: du -s $server_du, $server_files files of which $server_distinct distinct," \
	"tar stores $server_links hard link(s)"

# tar_link_pairs TAR: "NAME TARGET" for each hard link entry the archive stores.
tar_link_pairs() {
	tar -tvf "$1" | awk '$1 ~ /^h/ && $7 == "link" && $8 == "to" { print $6, $9 }'
}
# false_links TAR: the stored hard links between files the server holds as distinct
# inodes (compared by st_dev:st_ino on the server).
false_links() {
	local name target
	while read -r name target; do
		[[ $(stat -c %d:%i "/data/fex/$name") == "$(stat -c %d:%i "/data/fex/$target")" ]] ||
			echo "$name -> $target"
	done < <(tar_link_pairs "$1")
}
# distinct_files DIR: regular files below DIR with an inode of their own.
distinct_files() {
	find "$1" -type f -printf '%i\n' | sort -u | wc -l
}

# run_tools TAG MNT PREFIX...: find, du -s, tar -c and rsync -aH on MNT, each run
# as PREFIX... TOOL (PREFIX empty: plain); results in /tmp/TAG.* and shell variables
# named after TAG.
declare -A loops du links bad copies
run_tools() {
	local tag=$1 mnt=$2
	shift 2
	local rc=0
	# The file names check_find_like_server reads.
	"$@" find "$mnt" >"/tmp/find-$tag.out" 2>"/tmp/find-$tag.err" || rc=$?
	sed "s|^$mnt||" "/tmp/find-$tag.out" | sort >"/tmp/client-$tag.list"
	loops[$tag]=$(grep -c 'File system loop detected' "/tmp/find-$tag.err" || true)
	say "$tag: find exits $rc, lists $(wc -l <"/tmp/client-$tag.list") entries, ${loops[$tag]} loop message(s)"
	sed 's/^/   stderr: /' "/tmp/find-$tag.err" | head -n 4
	du[$tag]=$("$@" du -s "$mnt" 2>"/tmp/$tag.du-err" | cut -f1) || true
	"$@" tar -cf "/tmp/$tag.tar" -C "$mnt" . 2>"/tmp/$tag.tar-err" || true
	links[$tag]=$(tar_link_pairs "/tmp/$tag.tar" | wc -l) || true
	false_links "/tmp/$tag.tar" >"/tmp/$tag.false-links" 2>/dev/null || true
	bad[$tag]=$(wc -l <"/tmp/$tag.false-links")
	rm -rf "/tmp/$tag.copy"
	rc=0
	"$@" rsync -aH "$mnt/" "/tmp/$tag.copy/" 2>"/tmp/$tag.rsync-err" || rc=$?
	copies[$tag]=$(distinct_files "/tmp/$tag.copy")
	say "$tag: du -s ${du[$tag]}; tar stores ${links[$tag]} hard link(s), ${bad[$tag]} between" \
		"distinct files; rsync -aH exits $rc, copies $(find "/tmp/$tag.copy" -type f | wc -l)" \
		"files as ${copies[$tag]} distinct"
	sed -n 's/^/   false link: /; 1,3p' "/tmp/$tag.false-links"
	rm -rf "/tmp/$tag.copy" "/tmp/$tag.tar"
}

# Paths whose device numbers are checked: the export root, the nested subvolume, the
# snapshots, a file in one.
subvol_paths=(. spool spool/.snapshot/s1 spool/.snapshot/s2 spool/.snapshot/s3
	spool/.snapshot/s1/d0/f0)
# expected_devs MNT: "PATH MAJOR MINOR" for each of subvol_paths as exec must show them:
# major 0x80000000 | the mount's kernel device number (MAJOR << 20 | MINOR, from plain
# stat), minor the server's subvolume id (btrfs inspect-internal rootid on the server).
expected_devs() {
	local mnt=$1 kmaj kmin p
	read -r kmaj kmin < <(stat -c '%Hd %Ld' "$mnt")
	for p in "${subvol_paths[@]}"; do
		echo "$mnt/$p $((0x80000000 | kmaj << 20 | kmin)) $(btrfs inspect-internal rootid "/data/fex/$p")"
	done
}
# exec_devs MNT: the same as stat(1) under exec prints them.
exec_devs() {
	local mnt=$1 p paths=()
	for p in "${subvol_paths[@]}"; do
		paths+=("$mnt/$p")
	done
	btrfs-ino exec -- stat -c '%n %Hd %Ld' "${paths[@]}"
}

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	t0=$SECONDS
	expected_devs "$mnt" >"/tmp/devs-v$v.expected"
	exec_devs "$mnt" >"/tmp/devs-v$v.exec"
	sed 's/^/   expected /' "/tmp/devs-v$v.expected"
	check "vers=$v exec: each subvolume's st_dev is makedev(0x80000000 | mount dev, subvolume id)" \
		diff -u "/tmp/devs-v$v.expected" "/tmp/devs-v$v.exec"
	# Without exec: the baseline the issue reports.
	run_tools "plain-v$v" "$mnt"
	check "vers=$v plain: find reports a loop" test "${loops[plain-v$v]}" -gt 0
	check "vers=$v plain: du -s (${du[plain-v$v]}) is below the server's ($server_du)" \
		test "${du[plain-v$v]:-0}" -lt "$server_du"
	check "vers=$v plain: tar stores hard links between distinct files" \
		test "${bad[plain-v$v]}" -gt 0
	check "vers=$v plain: rsync -aH merges distinct files" \
		test "${copies[plain-v$v]}" -lt "$server_distinct"

	# Under btrfs-ino exec.
	run_tools "exec-v$v" "$mnt" btrfs-ino exec --
	# shellcheck disable=SC2034 # read by check_find_like_server
	find_loops=${loops[exec-v$v]}
	check_find_like_server "exec-v$v" "$mnt"
	check "vers=$v exec: du -s equals the server's ($server_du)" \
		test "${du[exec-v$v]:-0}" -eq "$server_du"
	check "vers=$v exec: tar stores no hard link between distinct files" \
		test "${bad[exec-v$v]}" -eq 0
	check "vers=$v exec: tar stores the server's $server_links hard link(s)" \
		test "${links[exec-v$v]}" -eq "$server_links"
	check "vers=$v exec: rsync -aH copies the server's $server_distinct distinct files" \
		test "${copies[exec-v$v]}" -eq "$server_distinct"
	# ls: GNU, dynamic (true is busybox's, static, and exec rightly says so).
	check "vers=$v exec: says nothing about the mount" \
		test -z "$(btrfs-ino exec -- ls -d "$mnt" 2>&1 >/dev/null)"
	say "vers=$v: took $((SECONDS - t0))s"
done

# The tmpfs export: NFS, handles readable, but not btrfs: nothing changes, nothing said.
find /mnt/plain -printf '%D %i %y %p\n' >/tmp/plain-nfs.plain
btrfs-ino exec -- find /mnt/plain -printf '%D %i %y %p\n' >/tmp/plain-nfs.exec
say "tmpfs export: find lists $(wc -l </tmp/plain-nfs.plain) entries"
check "tmpfs export: find under exec prints the same st_dev and inodes" \
	diff -u /tmp/plain-nfs.plain /tmp/plain-nfs.exec
check "tmpfs export: exec says nothing about the mount" \
	test -z "$(btrfs-ino exec -- ls -d /mnt/plain 2>&1 >/dev/null)"

# vers=4.0: no file handles, so exec cannot help; it says so, naming the mount.
btrfs-ino exec -- ls -d /mnt/v4.0 2>/tmp/v4.0.err >/dev/null
sed 's/^/   stderr: /' /tmp/v4.0.err
check "vers=4.0: exec names the mount it cannot help with" \
	grep -q '^btrfs-ino: /mnt/v4.0: exec: NFS mount whose file handles tell no subvolume' /tmp/v4.0.err
rc=0
btrfs-ino exec -- find /mnt/v4.0 >/dev/null 2>/tmp/v4.0.find-err || rc=$?
check "vers=4.0: find under exec still meets the loop (st_dev left alone)" \
	grep -q 'File system loop detected' /tmp/v4.0.find-err

say "summary (server: $(wc -l </tmp/server.list) entries, du $server_du, $server_links tar links, $server_distinct distinct files)"
row='%-10s %8s %6s %8s %9s %10s %9s\n'
# shellcheck disable=SC2059 # the format is the row above
printf "$row" run entries loops du tar-links false-links distinct
for v in "${versions[@]}"; do
	for tag in "plain-v$v" "exec-v$v"; do
		# shellcheck disable=SC2059
		printf "$row" "$tag" "$(wc -l <"/tmp/client-$tag.list")" "${loops[$tag]}" "${du[$tag]}" \
			"${links[$tag]}" "${bad[$tag]}" "${copies[$tag]}"
	done
done

for v in "${versions[@]}" 4.0; do
	umount "/mnt/v$v"
done
umount /mnt/plain
say "scenario took $((SECONDS - start))s"
finish
