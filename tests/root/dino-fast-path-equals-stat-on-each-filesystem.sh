#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The walk takes a non-directory's inode from readdir's d_ino only where that
# is exact (btrfs, ext4, xfs, tmpfs) and stats elsewhere.  On each of those
# filesystems, on overlayfs (whose d_ino need not be st_ino) and on a tmpfs
# with a file bind-mounted over a file (readdir shows the covered inode), the
# default walk gives every entry the device and inode stat(2) gives it.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch
for tool in mkfs.ext4 mkfs.xfs; do
	command -v "$tool" >/dev/null || skip_or_fail "needs $tool"
done

# populate DIR: files, a hard link, a symbolic link, a FIFO, nested dirs.
populate() {
	local dir=$1 i
	mkdir -p -- "$dir/a/b/c" "$dir/d"
	for i in 1 2 3 4 5; do
		echo "$i" >"$dir/a/file$i"
		echo "$i" >"$dir/a/b/c/deep$i"
	done
	ln -- "$dir/a/file1" "$dir/d/link-to-file1"
	ln -s ../a/file2 "$dir/d/symlink"
	mkfifo -- "$dir/d/fifo"
}

# check_tree NAME DIR: the default walk of DIR equals stat on every entry:
# the inode, and the device too except on btrfs (whose key names the
# filesystem's device, not each subvolume's anonymous one).
check_tree() {
	local name=$1 dir=$2 fields='%p\t%D\t%i\n'
	walk "$name" --json "$dir"
	check_walk_rc "$name" 0
	check_json "$name"
	walk_tsv "$OUT/$name" | while IFS=$'\t' read -r path dev _ ino _; do
		if [[ $name == btrfs ]]; then
			printf '%s\t%s\n' "$path" "$ino"
		else
			printf '%s\t%s\t%s\n' "$path" "$(devnum "$dev")" "$ino"
		fi
	done | sort >"$OUT/$name.walk"
	[[ $name != btrfs ]] || fields='%p\t%i\n'
	find "$dir" -printf "$fields" | sort >"$OUT/$name.stat"
	check_files_eq "$name: path, st_dev, st_ino of every entry" \
		"$OUT/$name.stat" "$OUT/$name.walk"
	check_eq "$name: entries" 18 "$(wc -l <"$OUT/$name.walk")"
}

mount_loop btrfs 320M "$WORK/btrfs"
populate "$WORK/btrfs"
check_tree btrfs "$WORK/btrfs"

mount_loop ext4 320M "$WORK/ext4"
rmdir -- "$WORK/ext4/lost+found"
populate "$WORK/ext4"
check_tree ext4 "$WORK/ext4"

mount_loop xfs 320M "$WORK/xfs"
populate "$WORK/xfs"
check_tree xfs "$WORK/xfs"

mkdir -- "$WORK/tmpfs"
mount -t tmpfs tmpfs "$WORK/tmpfs"
populate "$WORK/tmpfs/tree"
check_tree tmpfs "$WORK/tmpfs/tree"

# overlayfs: half the tree in the lower layer, half in the upper, one lower
# file copied up by a write through the merged view.
mkdir -- "$WORK/tmpfs/lower" "$WORK/tmpfs/upper" "$WORK/tmpfs/work" "$WORK/overlay"
populate "$WORK/tmpfs/lower"
mount -t overlay overlay \
	-o "lowerdir=$WORK/tmpfs/lower,upperdir=$WORK/tmpfs/upper,workdir=$WORK/tmpfs/work" \
	"$WORK/overlay"
echo more >>"$WORK/overlay/a/file3"
mkdir -- "$WORK/overlay/upper-only"
echo new >"$WORK/overlay/upper-only/file"
check_eq "overlay: fstype" overlay "$(findmnt -n -o FSTYPE -- "$WORK/overlay")"
walk overlay --json "$WORK/overlay"
check_walk_rc overlay 0
walk_tsv "$OUT/overlay" | cut -f1,4 | sort >"$OUT/overlay.walk"
find "$WORK/overlay" -printf '%p\t%i\n' | sort >"$OUT/overlay.stat"
check_files_eq "overlay: path, st_ino of every entry" "$OUT/overlay.stat" "$OUT/overlay.walk"

# A file bind-mounted over another: readdir still shows the covered file's
# inode, stat the mounted one's.
mkdir -- "$WORK/tmpfs/binds"
populate "$WORK/tmpfs/binds"
mount --bind -- "$WORK/tmpfs/tree/a/file5" "$WORK/tmpfs/binds/a/file4"
check_tree file-bind-mount "$WORK/tmpfs/binds"
check_eq "file bind mount: file4 has file5's inode" \
	"$(stat -c %i -- "$WORK/tmpfs/tree/a/file5")" \
	"$(jq -r --arg p "$WORK/tmpfs/binds/a/file4" 'select(.path == $p) | .ino' "$OUT/file-bind-mount")"

finish
