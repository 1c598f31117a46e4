#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An ext4 directory exported with crossmnt holding a mounted btrfs of 70
# subvolumes and snapshots whose files share inode numbers (issue 12): the
# audit crosses into the btrfs and counts what find counts.
#
# The layout is the one that crashed.  The audit starts its read-ahead
# helper (nlink_tree.c) only on a btrfs export root, so below an ext4 one it
# reads each subvolume's inodes with several names itself, once enough of
# its entries needed nlink (LINKS_AFTER_STATS, 64, in lib/audit/audit.c: each
# snapshot holds more files than that in a/).  Each snapshot also holds a
# nested subvolume (m/inner) between a/ and z/: the walk meets a new
# identity, which grew the identity array, then goes on in the snapshot and
# reads what it had read, through the moved array.  Under ASan (the CI's
# second pass of the root suite) that was a heap-use-after-free; without
# it, glibc's MALLOC_PERTURB_ fills freed memory so that reading it fails
# here too (it was a segfault) instead of finding the old bytes intact.
# meson sets it to a random byte; it is fixed here for runs by hand.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch
command -v mkfs.ext4 >/dev/null || skip_or_fail "needs mkfs.ext4"

SNAPSHOTS=34 # + their 34 nested subvolumes, src and the top level: 70
FILES=80     # per directory a/ and z/: more than LINKS_AFTER_STATS

export_dir=$WORK/ext4/export
btrfs_dir=$export_dir/btrfs
mount_loop ext4 64M "$WORK/ext4"
mkdir -p -- "$btrfs_dir"
echo note >"$export_dir/note"
mount_loop btrfs 256M "$btrfs_dir"

# src: a/ (FILES files and hl), m/, z/ (FILES files and a second name of
# a/hl), in that order, which is btrfs's readdir order.
btrfs -q subvolume create -- "$btrfs_dir/src"
mkdir -- "$btrfs_dir/src/a" "$btrfs_dir/src/m" "$btrfs_dir/src/z"
(cd -- "$btrfs_dir/src/a" && seq -f 'f%03g' 1 "$FILES" | xargs touch --)
(cd -- "$btrfs_dir/src/z" && seq -f 'g%03g' 1 "$FILES" | xargs touch --)
echo linked >"$btrfs_dir/src/a/hl"
ln -- "$btrfs_dir/src/a/hl" "$btrfs_dir/src/z/hl"
for i in $(seq -w 1 "$SNAPSHOTS"); do
	btrfs -q subvolume snapshot -- "$btrfs_dir/src" "$btrfs_dir/snap$i"
	btrfs -q subvolume create -- "$btrfs_dir/snap$i/m/inner"
	echo inner >"$btrfs_dir/snap$i/m/inner/file"
done
subvolumes=$(($(btrfs subvolume list -- "$btrfs_dir" | wc -l) + 1))
check_eq "subvolumes made, the top level included" 70 "$subvolumes"

export MALLOC_PERTURB_=165
write_exports "$OUT/exports" "$export_dir *(rw,no_subtree_check,crossmnt)"
find_listing "$export_dir" "$OUT/listing"

audit json --json --exports "$OUT/exports" "$export_dir"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" \
	"$(expected_counts "$export_dir" "$OUT/listing" "$btrfs_dir")" \
	"$(audit_counts json)"
check_eq "entries" "$(wc -l <"$OUT/listing")" \
	"$(jq -r '.exports[0].entries' "$OUT/json")"
check_eq "client filesystems" 2 "$(jq -r '.exports[0].client_filesystems' "$OUT/json")"
check_eq "subvolumes" "$subvolumes" "$(jq -r '.exports[0].subvolumes | length' "$OUT/json")"
umount -- "$btrfs_dir"
finish
