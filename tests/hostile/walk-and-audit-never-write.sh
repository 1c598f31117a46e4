#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino never writes, and never opens a file for reading: on btrfs and
# tmpfs mounted strictatime (every read updates atime), a full metadata
# listing (find -printf '%A@ %T@ %C@ %i %n %m %s %p': atime, mtime, ctime,
# inode, links, mode, size, path) is identical before and after walks (text,
# JSON, -0, --stat, --stat-all, --depth) and audits; after -L, only the
# atimes of the symbolic links followed differ (the kernel records the
# traversal, as for find -L).  The mounts also have
# nodiratime: reading a directory is a read the kernel records in its atime
# by design, for find as much as for btrfs-ino, and find must be able to
# list the tree without changing it.  The tree has files with content,
# symbolic links, hard links, a fifo, a socket, a subvolume (btrfs).
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
SCRATCH_BTRFS_OPTS=strictatime,nodiratime
SCRATCH_TMPFS_OPTS=size=64m,strictatime,nodiratime
setup_scratch btrfs tmpfs

listing() {
	find "$1" -printf '%A@ %T@ %C@ %i %n %m %s %p\n' | LC_ALL=C sort -k8
}

for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	top=$fs/ro-test
	if [[ $fs == "$BTRFS" ]]; then
		btrfs -q subvolume create -- "$top" >/dev/null
		btrfs -q subvolume create -- "$top/nested" >/dev/null
	else
		mkdir -p -- "$top/nested"
	fi
	mkdir -p -- "$top/dir/sub"
	echo content >"$top/dir/file"
	echo more >"$top/nested/file"
	ln -- "$top/dir/file" "$top/dir/sub/hard"
	ln -s file "$top/dir/link"
	ln -s ../dir "$top/nested/dirlink"
	mkfifo -- "$top/dir/fifo"
	perl -MIO::Socket::UNIX -e 'IO::Socket::UNIX->new(Type => SOCK_STREAM(), Local => shift, Listen => 1) or die' \
		"$top/dir/socket"
	# Let every timestamp settle, then make sure strictatime is live: a
	# read of a file moves its atime (else this test proves nothing).
	sync
	sleep 0.1
	listing "$top" >"$OUT/$label.before"
	listing "$top" >"$OUT/$label.again"
	check_files_eq "$label: find alone changes nothing" "$OUT/$label.before" "$OUT/$label.again"

	for args in "walk" "walk --json" "walk --json --stat" "walk --json --stat --stat-all" \
		"walk -0 --depth" "audit -q" "audit --json -q" "audit --json -q --nfsv4"; do
		name=$label-${args// /}
		# shellcheck disable=SC2086
		run_cli "$name" 60 $args "$top"
		check_rc "$name" 0 1
	done
	sync
	listing "$top" >"$OUT/$label.after"
	check_files_eq "$label: metadata after walks and audits" "$OUT/$label.before" "$OUT/$label.after"

	# Following links (-L) is path resolution through them, which the
	# kernel records in the links' own atimes (find -L does the same): only
	# those may change.
	run_cli "$label-follow" 60 walk --json -L --stat "$top"
	check_rc "$label-follow" 0 1
	sync
	listing "$top" >"$OUT/$label.after-L"
	find "$top" -type l -printf '%p\n' >"$OUT/$label.links"
	mask_link_atimes() {
		awk 'NR == FNR { link[$0] = 1; next }
			{ p = $0; for (i = 0; i < 7; i++) sub(/^[^ ]* /, "", p); if (p in link) $1 = "-"; print }' "$OUT/$label.links" "$1"
	}
	mask_link_atimes "$OUT/$label.before" >"$OUT/$label.before-masked"
	mask_link_atimes "$OUT/$label.after-L" >"$OUT/$label.after-L-masked"
	check_files_eq "$label: metadata after -L but the links' atimes" \
		"$OUT/$label.before-masked" "$OUT/$label.after-L-masked"

	# The control: a read does show (the mount really is strictatime).
	sleep 0.01
	cat -- "$top/dir/file" >/dev/null
	listing "$top" >"$OUT/$label.control"
	if cmp -s -- "$OUT/$label.before" "$OUT/$label.control"; then
		fail "$label: reading a file did not change its atime: strictatime is not in effect"
	fi
	echo "$label: $(wc -l <"$OUT/$label.before") entries unchanged"
done

finish
