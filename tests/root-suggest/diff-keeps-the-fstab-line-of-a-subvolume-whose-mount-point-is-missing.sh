#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A deleted subvolume is one the subvolume tree no longer has, nothing
# else.  On a snapper layout (@home mounted on home, exported; fstab mounts
# subvol=/@snapshots/@home on home/.snapshots, whose directory is missing)
# and with a subvolid= line of another live subvolume on a missing
# directory, suggest --diff --format server-fstab removes no line of a
# subvolume `btrfs subvolume list` shows, and removes the lines of the two
# subvolumes deleted (one by subvolid=, one by subvol=): after patch the
# fstab holds exactly the lines whose subvolume the list shows.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_scratch
top=$WORK/top
mount_loop btrfs 256M "$top"
uuid=$(blkid -p -s UUID -o value "${LOOPS[0]}")
mkdir -- "$top/@snapshots"
for s in @home @snapshots/@home @other @gone-by-id @gone-by-path; do
	btrfs -q subvolume create -- "$top/$s" >/dev/null
done
btrfs -q subvolume create -- "$top/@home/data" >/dev/null
id_of() { btrfs inspect-internal rootid -- "$top/$1"; }
id_other=$(id_of @other)
id_gone=$(id_of @gone-by-id)
home=$WORK/root/home
mkdir -p -- "$home"
mount -o subvol=@home -- "${LOOPS[0]}" "$home"
EXPORTS=$OUT/exports
printf '%s 127.0.0.1(rw,no_subtree_check,crossmnt)\n' "$home" >"$EXPORTS"
FSTAB=$OUT/fstab
{
	printf 'UUID=%s %s btrfs subvol=/@snapshots/@home,nofail 0 0\n' "$uuid" "$home/.snapshots"
	printf 'UUID=%s %s btrfs subvolid=%s,nofail 0 0\n' "$uuid" "$home/other" "$id_other"
	printf 'UUID=%s %s btrfs subvolid=%s,nofail 0 0\n' "$uuid" "$home/gone-by-id" "$id_gone"
	printf 'UUID=%s %s btrfs subvol=@gone-by-path,nofail 0 0\n' "$uuid" "$home/gone-by-path"
} >"$FSTAB"
btrfs -q subvolume delete -- "$top/@gone-by-id" "$top/@gone-by-path" >/dev/null
# The mount points are missing, all four.
for d in .snapshots other gone-by-id gone-by-path; do
	[[ ! -e $home/$d ]] || fail "$home/$d exists"
done

# Expected: the lines whose subvolume the tree still has, by ID or path.
btrfs subvolume list "$top" | awk '{ print $2 }' >"$OUT/ids"
btrfs subvolume list "$top" | sed 's/^.* path //' >"$OUT/paths"
while read -r line; do
	opts=$(awk '{ print $4 }' <<<"$line")
	case $opts in
	subvolid=*) id=${opts#subvolid=}; id=${id%%,*}; grep -qx -- "$id" "$OUT/ids" ;;
	subvol=*) p=${opts#subvol=}; p=${p%%,*}; grep -qx -- "${p#/}" "$OUT/paths" ;;
	esac && printf '%s\n' "$line"
done <"$FSTAB" >"$OUT/expected"
check_eq "lines of live subvolumes" 2 "$(wc -l <"$OUT/expected")"

suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff --format server-fstab "$home"
cp -- "$FSTAB" "$OUT/patched"
patch -s "$OUT/patched" <"$OUT/diff" || fail "patch rejects the diff: $(cat "$OUT/diff")"
config_lines "$OUT/patched" | grep -F " $home/" | grep -vF "subvolid=$(id_of @home/data)," >"$OUT/kept" || true
check_files_eq "the fstab lines kept are those of live subvolumes" "$OUT/expected" "$OUT/kept"
finish
