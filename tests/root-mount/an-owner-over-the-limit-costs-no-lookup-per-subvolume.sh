#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A subvolume whose owner is over --max-user-mounts already is skipped
# without a lookup of its path: with 60 subvolumes of uid 1000 and
# --max-user-mounts 1, mount --dry-run lists 59 skips, and opens (openat2,
# strace) fewer paths than there are subvolumes below the export; a lookup
# each would be 60 for uid 1000's alone.  Subvolumes from btrfs subvolume
# list, committed (btrfs filesystem sync) as a server's are.
source "$(dirname -- "$0")/mount-lib.sh"
command -v strace >/dev/null || skip_or_fail "needs strace"
setup_mount_export

user=$FEX/user
mkdir -- "$user"
for ((i = 0; i < 60; i++)); do
	printf '%s/s%d\0' "$user" "$i"
done | xargs -0 -n 1 -P 4 btrfs -q subvolume create
chown 1000:1000 -- "$user"/s*
# The owner is read from each subvolume's tree, where btrfs writes a chown
# when it commits (until then its delayed inode holds it).
btrfs filesystem sync "$MNT"
total=$(expected_subvols | wc -l)

# shellcheck disable=SC2034 # run_cli (tests/root/lib.sh) reads it
RUN_WRAPPER=(strace -f -qq -e trace=openat2 -o "$OUT/trace")
# LeakSanitizer (a sanitizer build) cannot run under ptrace.
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	mount_cmd dry --dry-run --max-user-mounts 1 --exports "$EXPORTS"
check_mount_rc dry 0
check_eq "59 of uid 1000's listed as skipped" 59 \
	"$(grep -c "^skip $user/s[0-9]*: its owner, uid 1000, has reached --max-user-mounts 1" "$OUT/dry")"
opened=$(grep -c 'openat2(' "$OUT/trace" || true)
((opened < total - 50)) ||
	fail "$opened paths opened for $total subvolumes: a lookup per skipped one"
finish
