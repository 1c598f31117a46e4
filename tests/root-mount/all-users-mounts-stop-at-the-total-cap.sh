#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# All owners other than root together stop at --max-total-user-mounts: of
# five subvolumes of five users (uids 2001-2005, one each, well below
# --max-user-mounts) three are mounted with --max-total-user-mounts 3, two
# skipped ("the owners other than root have reached --max-total-user-mounts
# 3 below EXPORT"); root's subvolumes are all mounted, uncounted; --dry-run
# says "count users: 3 of --max-total-user-mounts 3 below EXPORT".  A
# second run mounts nothing: the mounts there count.  Owners from stat,
# mounts from findmnt.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

u=$FEX/u
mkdir -- "$u"
for n in 1 2 3 4 5; do
	btrfs -q subvolume create "$u/s$n"
	chown "200$n:200$n" -- "$u/s$n"
done
btrfs -q subvolume create "$u/roots"

mount_cmd dry --dry-run --max-total-user-mounts 3 --exports "$EXPORTS"
check_mount_rc dry 0
check_eq "two listed as over the cap" 2 \
	"$(grep -c "^skip $u/s[1-5]: the owners other than root have reached --max-total-user-mounts 3 below $FEX\$" "$OUT/dry")"
check_eq "and nothing else" 2 "$(grep -c '^skip ' "$OUT/dry")"
check_eq "--dry-run counts all users' mounts against the cap" \
	"count users: 3 of --max-total-user-mounts 3 below $FEX" \
	"$(grep '^count users: ' "$OUT/dry")"

mount_cmd real --max-total-user-mounts 3 --exports "$EXPORTS"
check_mount_rc real 0
check_eq "the run says it skipped two" \
	"btrfs-ino: mount: $FEX: skipped 2 subvolumes by the mount policy (--dry-run lists them)" \
	"$(cat "$OUT/real.err")"
mount_table | grep -vxF -f "$OUT/mounts.before" | cut -f1 | sort >"$OUT/mounted"
check_eq "three users' subvolumes mounted" 3 \
	"$(while IFS= read -r m; do stat -c %u -- "$m"; done <"$OUT/mounted" | grep -c '^200[1-5]$')"
expected_subvols | cut -f2 | grep -vF "$u/s" | sort >"$OUT/roots-expected"
check_files_eq "every root-owned subvolume mounted" "$OUT/roots-expected" \
	<(grep -vF "$u/s" "$OUT/mounted")

mount_cmd again --max-total-user-mounts 3 --exports "$EXPORTS"
check_mount_rc again 0
check_eq "a second run mounts nothing" "" "$(action_lines "$OUT/again")"
finish
