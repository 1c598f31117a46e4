#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The documented line "btrfs-ino suggest --format server-fstab PATH
# >>/etc/fstab && mount -a", on a copy of the fstab in a private mount
# namespace: suggest exits 0 having printed its lines, so mount -a runs,
# exits 0, and mounts each subvolume that is not a snapshot.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v unshare >/dev/null || skip_or_fail "needs unshare"
setup_export
FSTAB=$OUT/fstab
echo "# server fstab" >"$FSTAB"

# shellcheck disable=SC2016 # expanded by the inner bash
BLKID_FILE=/dev/null unshare -m --propagation private -- bash -c '
	"$1" suggest -q --exports "$2" --format server-fstab "$3" >>"$4" && mount -a -T "$4"
	echo "rc $?"
	findmnt -n -r -o TARGET | grep -F -- "$3/" | sort' \
	bash "$BTRFS_INO" "$EXPORTS" "$FEX" "$FSTAB" >"$OUT/run" 2>"$OUT/run.err"
check_eq "suggest && mount -a: exit status" "rc 0" "$(head -n 1 "$OUT/run")"
expected_plain_subvols | cut -f2 | sort >"$OUT/expected"
tail -n +2 "$OUT/run" >"$OUT/mounted"
check_files_eq "mount -a mounted the lines" "$OUT/expected" "$OUT/mounted"
finish
