#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Build or tear down a loop-mounted btrfs with the fex/spool/.snapshot layout.
#
# Usage:
#   classic-layout.sh create DIR [--files N]
#   classic-layout.sh destroy DIR
#
# create makes DIR/btrfs.img (sparse), attaches it to a loop device, mounts it
# at DIR/mnt and fills it with the layout of the user report this project
# exists for (a server exporting /data/fex, which holds the subvolume
# fex/spool and snapshots of it under fex/spool/.snapshot/):
#
#   mnt/                      top level, subvolume id 5
#     README, top dir/note.txt
#     fex/                    subvolume
#       hello.txt, docs/{a.txt,name with spaces.txt}
#       spool/                subvolume nested in fex
#         dir/sub/deep/file, dir/loop/ (empty: target for bind-mount tests)
#         data/original + hard links links/hard1, dir/sub/hard2
#         data/two + links/two-b     (2 links; in s1 and s2 only)
#         links/{rel,abs,dangling}   symbolic links
#         fifo, "spaced dir/file with spaces", changing.txt (v1/v2/v3)
#         files/dNN/fNNNNN           N regular files (--files, default 200)
#         inner/                     subvolume nested in spool, made before s1
#         .snapshot/s1               snapshot of spool (inner is a placeholder)
#         .snapshot/s2               snapshot after changes (s1 a placeholder)
#         .snapshot/s3               read-only snapshot after more changes
#         added-after-s3             exists only in the live spool
#
# It writes DIR/layout.env (shell assignments: IMG, LOOP, MNT, DEV and the
# subvolume ids) and prints the same lines.  destroy unmounts everything
# below DIR/mnt (deepest first), detaches the loop devices backing
# DIR/btrfs.img and removes the image; it is idempotent, safe after a failed
# create, and never touches anything outside DIR.  Both need root.
set -euo pipefail

prog=${0##*/}

die() {
	printf '%s: %s\n' "$prog" "$*" >&2
	exit 1
}

usage() {
	printf 'Usage: %s create DIR [--files N]\n       %s destroy DIR\n' "$prog" "$prog"
}

# Mount points at or below $1, deepest first (one per line).
mounts_below() {
	local top=$1 target
	findmnt -n -l -o TARGET | while IFS= read -r target; do
		if [[ $target == "$top" || $target == "$top"/* ]]; then
			printf '%s\t%s\n' "$(tr -dc / <<<"$target" | wc -c)" "$target"
		fi
	done | sort -t $'\t' -k1,1nr | cut -f2-
}

# Loop devices whose backing file is $1.
loops_of() {
	losetup -n -O NAME -j "$1" 2>/dev/null || true
}

# unmount_one TOP: unmount the deepest mount below TOP that can be; a
# mount a later one hides (a mount on its parent) waits for that one.
# Lazily if none can be, the deepest first; 1 if nothing was unmounted.
unmount_one() {
	local target
	while IFS= read -r target; do
		umount -- "$target" 2>/dev/null && return 0
	done < <(mounts_below "$1")
	while IFS= read -r target; do
		umount -l -- "$target" 2>/dev/null && return 0
	done < <(mounts_below "$1")
	return 1
}

layout_destroy() {
	local dir=$1 mnt img loop

	[[ -d $dir ]] || return 0
	dir=$(realpath -e -- "$dir")
	[[ $dir != / ]] || die "refusing to work on /"
	mnt=$dir/mnt
	img=$dir/btrfs.img

	# A mount can hide another one at the same target, so go round until
	# nothing is left; bounded (twice the mounts seen, and ten) so a stuck
	# mount ends in an error, not a hang.
	local rounds
	rounds=$(mounts_below "$mnt" | wc -l)
	for ((rounds = 2 * rounds + 10; rounds > 0; rounds--)); do
		[[ -n $(mounts_below "$mnt") ]] || break
		unmount_one "$mnt" || break
	done
	[[ -z $(mounts_below "$mnt") ]] || die "$mnt: still mounted"

	if [[ -e $img ]]; then
		for loop in $(loops_of "$img"); do
			losetup -d "$loop" 2>/dev/null || true
		done
		# Detaching a busy device only sets autoclear; wait for it.
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			[[ -n $(loops_of "$img") ]] || break
			udevadm settle 2>/dev/null || sleep 0.2
		done
		rm -f -- "$img"
	fi
	rm -f -- "$dir/layout.env"
	[[ ! -d $mnt ]] || rmdir -- "$mnt" 2>/dev/null || true
}

# Regular files, spread over directories of 100 so none gets huge.
make_files() {
	local base=$1 n=$2 i d f
	# printf -v, not $(...): no fork per file, so large N stays fast.
	for ((i = 1; i <= n; i++)); do
		printf -v d '%s/d%02d' "$base" $(((i - 1) / 100))
		printf -v f '%s/f%05d' "$d" "$i"
		[[ -d $d ]] || mkdir -p -- "$d"
		printf 'file %d\n' "$i" >"$f"
	done
}

subvol_id() {
	btrfs inspect-internal rootid -- "$1"
}

layout_create() {
	local dir=$1 files=$2 mnt img loop size spool

	mkdir -p -- "$dir"
	dir=$(realpath -e -- "$dir")
	mnt=$dir/mnt
	img=$dir/btrfs.img
	[[ ! -e $img ]] || die "$img exists: destroy it first"

	# Sparse; mkfs.btrfs wants at least ~120 MiB, benchmarks want room.
	size=$((1024 + files / 64))M
	truncate -s "$size" -- "$img"
	mkfs.btrfs -q -f -- "$img" >/dev/null
	loop=$(losetup --find --show -- "$img")
	# Record the loop device before anything else can fail.
	printf 'IMG=%q\nLOOP=%q\nMNT=%q\n' "$img" "$loop" "$mnt" >"$dir/layout.env"
	mkdir -p -- "$mnt"
	mount -t btrfs -- "$loop" "$mnt"

	# The top level (subvolume 5).
	echo "top level of the fixture" >"$mnt/README"
	mkdir -- "$mnt/top dir"
	echo note >"$mnt/top dir/note.txt"

	# fex: the exported subvolume.
	btrfs -q subvolume create -- "$mnt/fex" >/dev/null
	echo hello >"$mnt/fex/hello.txt"
	mkdir -- "$mnt/fex/docs"
	echo a >"$mnt/fex/docs/a.txt"
	echo spaces >"$mnt/fex/docs/name with spaces.txt"

	# fex/spool: nested subvolume with every kind of entry.
	spool=$mnt/fex/spool
	btrfs -q subvolume create -- "$spool" >/dev/null
	mkdir -p -- "$spool/dir/sub/deep" "$spool/dir/loop" "$spool/data" \
		"$spool/links" "$spool/spaced dir"
	echo deep >"$spool/dir/sub/deep/file"
	echo original >"$spool/data/original"
	ln -- "$spool/data/original" "$spool/links/hard1"
	ln -- "$spool/data/original" "$spool/dir/sub/hard2"
	echo two >"$spool/data/two"
	ln -- "$spool/data/two" "$spool/links/two-b"
	ln -s ../data/original "$spool/links/rel"
	ln -s /data/fex/spool/data/original "$spool/links/abs"
	ln -s does-not-exist "$spool/links/dangling"
	mkfifo -- "$spool/fifo"
	echo "v1" >"$spool/changing.txt"
	echo spaced >"$spool/spaced dir/file with spaces"
	make_files "$spool/files" "$files"

	# A subvolume nested in spool, so snapshots hold its placeholder.
	btrfs -q subvolume create -- "$spool/inner" >/dev/null
	echo inner >"$spool/inner/inner.txt"
	mkdir -- "$spool/inner/idir"
	echo x >"$spool/inner/idir/x"

	# Snapshots, one after another, with changes in between.
	mkdir -- "$spool/.snapshot"
	btrfs -q subvolume snapshot -- "$spool" "$spool/.snapshot/s1" >/dev/null
	echo "v2" >"$spool/changing.txt"
	echo "after s1" >"$spool/added-after-s1"
	btrfs -q subvolume snapshot -- "$spool" "$spool/.snapshot/s2" >/dev/null
	echo "v3" >>"$spool/changing.txt"
	rm -- "$spool/data/two" "$spool/links/two-b"
	btrfs -q subvolume snapshot -r -- "$spool" "$spool/.snapshot/s3" >/dev/null
	echo "after s3" >"$spool/added-after-s3"
	sync -f "$mnt"

	{
		printf 'DEV=%q\n' "$(findmnt -n -r -o MAJ:MIN --mountpoint "$mnt")"
		printf 'ID_TOP=%s\n' "$(subvol_id "$mnt")"
		printf 'ID_FEX=%s\n' "$(subvol_id "$mnt/fex")"
		printf 'ID_SPOOL=%s\n' "$(subvol_id "$spool")"
		printf 'ID_INNER=%s\n' "$(subvol_id "$spool/inner")"
		printf 'ID_S1=%s\n' "$(subvol_id "$spool/.snapshot/s1")"
		printf 'ID_S2=%s\n' "$(subvol_id "$spool/.snapshot/s2")"
		printf 'ID_S3=%s\n' "$(subvol_id "$spool/.snapshot/s3")"
	} >>"$dir/layout.env"
	cat -- "$dir/layout.env"
}

[[ $# -ge 2 ]] || { usage >&2; exit 2; }
cmd=$1
dir=$2
shift 2
[[ -n $dir ]] || die "empty DIR"
[[ $(id -u) == 0 ]] || die "must be run as root"

case $cmd in
create)
	files=200
	while [[ $# -gt 0 ]]; do
		case $1 in
		--files)
			[[ ${2-} =~ ^[0-9]+$ ]] || die "--files needs a number"
			files=$2
			shift 2
			;;
		*) usage >&2; exit 2 ;;
		esac
	done
	layout_create "$dir" "$files"
	;;
destroy)
	[[ $# -eq 0 ]] || { usage >&2; exit 2; }
	layout_destroy "$dir"
	;;
*)
	usage >&2
	exit 2
	;;
esac
