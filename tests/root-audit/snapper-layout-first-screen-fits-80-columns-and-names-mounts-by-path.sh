#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A snapper layout (subvolumes @ and @home, @/.snapshots with read-only
# snapshots N/snapshot of @, which holds a hard link; @ mounted as the root,
# @home on its home),
# exported with crossmnt: on an 80-column terminal no line of the first
# screen is wider than 80 columns; the verdict names the tools that break;
# the subvolume holding the export is named as mount -o names it
# (subvol=/@); the mount rows are named by their path below the export
# (home), not by a mount ID; a subvolume whose collisions are counted
# elsewhere says so in words.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch
command -v script >/dev/null || skip_or_fail "needs script(1) (bsdutils)"
locale -a 2>/dev/null | grep -qix 'c\.utf-\?8' || skip_or_fail "needs the C.UTF-8 locale"

top=$WORK/top
root=$WORK/root
mount_loop btrfs 512M "$top"
btrfs -q subvolume create "$top/@"
btrfs -q subvolume create "$top/@home"
btrfs -q subvolume create "$top/@/.snapshots"
mkdir -p -- "$top/@/etc" "$top/@/home" "$top/@home/alice"
for i in $(seq 1 20); do
	echo "$i" >"$top/@/etc/f$i"
	echo "$i" >"$top/@home/alice/f$i"
done
ln -- "$top/@/etc/f1" "$top/@/etc/f1-link"
for n in 1 2 3; do
	mkdir -- "$top/@/.snapshots/$n"
	btrfs -q subvolume snapshot -r "$top/@" "$top/@/.snapshots/$n/snapshot"
done
mkdir -p -- "$root"
mount -o subvol=@ -- "${LOOPS[0]}" "$root"
mount -o subvol=@home -- "${LOOPS[0]}" "$root/home"
write_exports "$OUT/exports" "$root *(rw,no_subtree_check,crossmnt)"

LC_ALL=C.UTF-8 NO_COLOR=1 COLUMNS=80 script -qec \
	"stty cols 80 rows 50; '$BTRFS_INO' audit -q --exports '$OUT/exports' '$root'" \
	/dev/null >"$OUT/tty" 2>&1 || true
tr -d '\r' <"$OUT/tty" >"$OUT/screen"
check_eq "lines wider than 80 columns" "" \
	"$(while IFS= read -r line; do
		w=$(printf '%s\n' "$line" | LC_ALL=C.UTF-8 wc -L)
		((w <= 80)) || printf '%s: %s\n' "$w" "$line"
	done <"$OUT/screen")"
grep -q "^$root: unsafe: find reports [0-9]* loops;" "$OUT/screen" ||
	fail "the verdict does not name find: $(head -n 3 "$OUT/screen")"
grep -q "tar, rsync -H and du merge [0-9]* files" "$OUT/screen" ||
	fail "the verdict does not name tar, rsync -H and du: $(head -n 3 "$OUT/screen")"

audit_tree pairs --exports "$OUT/exports" "$root"
check_eq "the row of the subvolume holding the export" "subvol=/@" \
	"$(tree_rows "$OUT/pairs" | awk -F'\t' '$1 == 1 && $2 == "subvolume" { print $10; exit }')"
check_eq "mount rows, by path below the export" "$root home" \
	"$(tree_rows "$OUT/pairs" | awk -F'\t' '$2 == "mount" { print $10 }' | paste -sd' ')"
tree_rows "$OUT/pairs" | awk -F'\t' '$2 == "mount"' | grep -q "mount [0-9]" &&
	fail "a mount row names a mount ID"
grep -q "collisions counted at [0-9]" "$OUT/screen" ||
	fail "no subvolume says where its collisions are counted: $(cat "$OUT/screen")"
finish
