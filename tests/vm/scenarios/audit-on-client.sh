#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino audit on an NFS client: the plain export's subvolumes named as plain directories with find's own counts, clean after the server fix and the client's mounts, and "cannot tell" on NFSv4.0.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

# Server: btrfs at /data, the classic layout, fex exported as is (no crossmnt, no mounts).
scratch_btrfs /data
classic_layout /data
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'
versions=(3 4.2)
for v in "${versions[@]}" 4.0; do
	nfs_mount "$v" "/mnt/v$v"
done

# The server's truth: each entry's (st_dev, st_ino) there (one anonymous device per
# subvolume: the true identity), by path relative to the export; the placeholders
# (inode 2: knfsd cannot serve them, the client cannot stat them); the subvolume roots.
(cd /data/fex && find . -printf '%D:%i %p\n') >/tmp/server.ids
(cd /data/fex && find . -type d -inum 2) >/tmp/placeholders
find /data/fex -mindepth 1 -type d -inum 256 -printf '%P\n' | LC_ALL=C sort >/tmp/subvols
say "server: $(wc -l </tmp/server.ids) entries, subvolumes below the export: $(tr '\n' ' ' </tmp/subvols)"

# client_ids MNT OUT: what the client's stat(1) says of the same paths: "st_dev:st_ino
# nlink mode path" (stat takes them all at once; find would stop at the loops).
client_ids() {
	(cd "$1" && cut -d' ' -f2- /tmp/server.ids | grep -vxFf /tmp/placeholders |
		xargs -d '\n' stat -c '%d:%i %h %A %n' 2>"$2.err" || true) >"$2"
	say "client stat: $(wc -l <"$2") entries, $(wc -l <"$2.err") error(s)"
}

# expected_counts CLIENT [PLACEHOLDERS]: "loop hardlink plain" as the audit defines them, from the
# client's keys (CLIENT) against the server's identities (/tmp/server.ids); a
# placeholder, listed by readdir but not stat'able here, is inode 2 of its directory's
# subvolume (the server's stat gives it the filesystem's device, not the subvolume's),
# on its directory's client device:
#   plain    every entry whose client key is shared with another identity;
#   hardlink non-directories with nlink > 1 whose key is shared with another such
#            entry of a different identity;
#   loop     directories whose client key equals an ancestor's.
expected_counts() {
	awk '
		FILENAME == "/tmp/placeholders" { ph[$1] = 1; next }
		(FILENAME == "/tmp/server.ids" && ($2 in ph) && !with_ph) { next }
		FILENAME != "/tmp/server.ids" { c[$4] = $1; nl[$4] = $2; md[$4] = $3; next }
		{ path = $2; id = $1
		  if (path in ph) {
			parent = path; sub(/\/[^\/]*$/, "", parent)
			k = ckey[parent]; sub(/:.*/, ":2", k); d = 1; multi = 0
			id = sid[parent]; sub(/:.*/, ":2", id)
		  } else if (path in c) {
			k = c[path]; d = (substr(md[path], 1, 1) == "d"); multi = (!d && nl[path] > 1)
		  } else next
		  ckey[path] = k; sid[path] = id; dir[path] = d; ml[path] = multi
		  n++; order[n] = path
		  if (!seen[k, id]++) ids[k]++
		  if (multi && !lseen[k, id]++) lids[k]++ }
		END {
			for (i = 1; i <= n; i++) {
				p = order[i]
				if (ids[ckey[p]] > 1) plain++
				if (ml[p] && lids[ckey[p]] > 1) hard++
				if (!dir[p]) continue
				a = p
				while (sub(/\/[^\/]*$/, "", a)) {
					if (ckey[a] == ckey[p]) { loop++; break }
				}
			}
			printf "%d %d %d\n", loop, hard, plain
		}' with_ph="${2:-1}" /tmp/placeholders "$1" /tmp/server.ids
}

# audit_json MNT TAG: btrfs-ino audit --json of MNT on the client, status in audit_rc.
audit_json() {
	audit_rc=0
	btrfs-ino audit --json -q "$1" >"/tmp/audit-$2.json" 2>"/tmp/audit-$2.err" || audit_rc=$?
	btrfs-ino audit -q "$1" >"/tmp/audit-$2.txt" 2>&1 || true
	say "client $2: audit exits $audit_rc"
	sed -n 's/^/   /; 1,60p' "/tmp/audit-$2.txt"
}
# audited_counts TAG: the audit's "loop hardlink plain".
audited_counts() {
	jq -r '.exports[0].collisions | "\(.loop) \(.hardlink) \(.plain)"' "/tmp/audit-$1.json"
}
# subvols_as TAG OWN: the audited subvolumes (relative paths) whose own_filesystem is OWN.
subvols_as() {
	jq -r --argjson own "$2" '.exports[0] as $e | $e.subvolumes[]
		| select(.path != null and .path != $e.path and .own_filesystem == $own)
		| .path | ltrimstr($e.path + "/")' "/tmp/audit-$1.json" | sort
}

for v in "${versions[@]}"; do
	tag=plain-v$v
	audit_json "/mnt/v$v" "$tag"
	client_ids "/mnt/v$v" "/tmp/client-$tag.ids"
	# A client lists the placeholders or not (ESTALE) as its cache has them: the
	# client audit leaves them out, and so does what is expected.
	entries=$(jq '.exports[0].entries' "/tmp/audit-$tag.json")
	expected=$(expected_counts "/tmp/client-$tag.ids" 0)
	say "expected from stat on the client: loop hardlink plain = $expected;" \
		"audited: $(audited_counts "$tag")"
	check "vers=$v plain: audit exits 1" test "$audit_rc" -eq 1
	check "vers=$v plain: the view is the client's" \
		test "$(jq -r '.exports[0].view' "/tmp/audit-$tag.json")" = client
	check "vers=$v plain: every subvolume and snapshot is named as a plain directory" \
		diff -u /tmp/subvols <(subvols_as "$tag" false)
	check "vers=$v plain: collision counts equal those of stat on the client" \
		test "$(audited_counts "$tag")" = "$expected"
	check "vers=$v plain: some collision was found at all" test "$expected" != "0 0 0"
	check "vers=$v plain: it audits every entry the server's find lists but the placeholders" \
		test "$entries" -eq "$(($(wc -l </tmp/server.ids) - $(wc -l </tmp/placeholders)))"
	check "vers=$v plain: it says what this client can do (mounts if the server exports them, else exec)" \
		grep -q 'if the server mounts and exports them' "/tmp/audit-$tag.txt"
	check "vers=$v plain: ... and names btrfs-ino exec" \
		grep -q 'btrfs-ino exec -- COMMAND' "/tmp/audit-$tag.txt"
	# What the client can know: the server's export it mounts, and nothing
	# about the btrfs ioctls a client cannot make.
	check "vers=$v plain: the tree names the server's export this client mounts" \
		grep -q 'NFS mount of 127\.0\.0\.1:/data/fex, ' "/tmp/audit-$tag.txt"
	check "vers=$v plain: no row says 'not exported' or an ioctl error" \
		test -z "$(grep -e 'not exported' -e 'Inappropriate ioctl' "/tmp/audit-$tag.txt")"
	# The client lines it prints: the mount, then each subvolume, on its own path.
	{
		echo "127.0.0.1:/data/fex /mnt/v$v nfs _netdev,vers=$v 0 0"
		sed "s|.*|127.0.0.1:/data/fex/& /mnt/v$v/& nfs _netdev,vers=$v 0 0|" /tmp/subvols
	} >"/tmp/client-v$v.fstab"
	jq -r '.exports[0].client_advice.fstab[]' "/tmp/audit-$tag.json" >"/tmp/advice-v$v.fstab" || true
	sed 's/^/   fstab: /' "/tmp/advice-v$v.fstab"
	check "vers=$v plain: its client fstab lines mount the export and every subvolume" \
		diff -u <(LC_ALL=C sort "/tmp/client-v$v.fstab") <(LC_ALL=C sort "/tmp/advice-v$v.fstab")
done

# NFSv4.0: no file handles for the client, nothing can tell the subvolumes apart.
audit_json /mnt/v4.0 v4.0
check "vers=4.0: audit exits 2 (nothing could be audited)" test "$audit_rc" -eq 2
check "vers=4.0: it says it cannot tell, and why" \
	grep -q 'cannot tell: this client gets no file handles' "/tmp/audit-v4.0.txt"
check "vers=4.0: the JSON says so, with EOPNOTSUPP" \
	test "$(jq -r '.exports[0] | "\(.view) \(.error.errno) \(.cannot_tell != null)"' \
		/tmp/audit-v4.0.json)" = "client 95 true"

# The server fix: crossmnt (the exports line suggest prints) and every subvolume mounted
# on its own path (btrfs-ino mount); then the client mounts the lines its audit printed
# (checked above to be these).
say "server fix: suggest's exports line, btrfs-ino mount; clients mount the fstab lines"
[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
btrfs-ino suggest -q --format exports /data/fex >/tmp/exports || true
grep -v '^#' /tmp/exports >/etc/exports
btrfs-ino mount -q >/tmp/mount.out 2>&1 || true
exportfs -ra
exportfs -v | sed 's/^/   /' | cut -c1-150
for v in "${versions[@]}"; do
	umount "/mnt/v$v"
	mount -a -T "/tmp/client-v$v.fstab"
	findmnt -R -o TARGET,FSTYPE "/mnt/v$v" | sed 's/^/   /'
	tag=fixed-v$v
	audit_json "/mnt/v$v" "$tag"
	client_ids "/mnt/v$v" "/tmp/client-$tag.ids"
	expected=$(expected_counts "/tmp/client-$tag.ids")
	say "expected from stat on the client: $expected; audited: $(audited_counts "$tag")"
	check "vers=$v fixed: stat on the client shows no collision" test "$expected" = "0 0 0"
	check "vers=$v fixed: audit exits 0" test "$audit_rc" -eq 0
	check "vers=$v fixed: every subvolume and snapshot is a filesystem of its own" \
		diff -u /tmp/subvols <(subvols_as "$tag" true)
	check "vers=$v fixed: clean" test "$(audited_counts "$tag")" = "0 0 0"
	check "vers=$v fixed: it still audits every entry but the placeholders, through the client's mounts" \
		test "$(jq '.exports[0].entries' "/tmp/audit-$tag.json")" -eq \
		"$(($(wc -l </tmp/server.ids) - $(wc -l </tmp/placeholders)))"
done

for v in "${versions[@]}"; do
	umount -R "/mnt/v$v"
done
umount /mnt/v4.0
finish
