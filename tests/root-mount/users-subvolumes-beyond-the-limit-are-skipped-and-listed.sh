#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The mount policy: with --max-user-mounts 1, of three subvolumes owned by
# uid 1000 below the export one is mounted and the other two skipped
# (--dry-run lists them, "skip PATH: its owner, uid 1000, ..."; the run says
# how many on stderr and exits 0); a subvolume owned by root in the same
# directory, uid 1001's one, and the fixture's (root's) are all mounted.
# A second run mounts none of the two: the one mounted counts.  Owners
# come from stat, mount points from findmnt.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

user=$FEX/user
mkdir -- "$user"
for n in 1 2 3; do
	btrfs -q subvolume create "$user/s$n"
	chown 1000:1000 -- "$user/s$n"
done
btrfs -q subvolume create "$user/roots"
btrfs -q subvolume create "$user/other"
chown 1001:1001 -- "$user/other"
chown 1000:1000 -- "$user"

mount_cmd dry --dry-run --max-user-mounts 1 --exports "$EXPORTS"
check_mount_rc dry 0
sed -n 's/^skip \(.*\): its owner, uid 1000, has reached --max-user-mounts 1 below \(.*\)$/\1 \2/p' \
	"$OUT/dry" | sort >"$OUT/skipped"
check_eq "--dry-run lists two of uid 1000's as skipped, below the export" 2 \
	"$(grep -c " $FEX\$" "$OUT/skipped" || true)"
check_eq "and nothing else" 2 "$(grep -c '^skip ' "$OUT/dry")"

mount_cmd real --max-user-mounts 1 --exports "$EXPORTS"
check_mount_rc real 0
check_eq "the run says it skipped two" \
	"btrfs-ino: mount: $FEX: skipped 2 subvolumes by the mount policy (--dry-run lists them)" \
	"$(cat "$OUT/real.err")"
# Expected: every subvolume but the two --dry-run listed.
expected_subvols | cut -f2 | grep -vxF -f <(cut -d ' ' -f1 "$OUT/skipped") >"$OUT/expected" || true
mount_table | grep -vxF -f "$OUT/mounts.before" | cut -f1 | sort >"$OUT/mounted"
check_files_eq "mounted: all but the two skipped" <(sort "$OUT/expected") "$OUT/mounted"
check_eq "uid 1000's mounted" 1 "$(while IFS= read -r m; do stat -c %u -- "$m"; done <"$OUT/mounted" | grep -cx 1000)"
for s in roots other; do
	mountpoint -q -- "$user/$s" || fail "$user/$s is not mounted"
done

mount_cmd again --max-user-mounts 1 --exports "$EXPORTS"
check_mount_rc again 0
check_eq "a second run mounts nothing" "" "$(action_lines "$OUT/again")"
finish
