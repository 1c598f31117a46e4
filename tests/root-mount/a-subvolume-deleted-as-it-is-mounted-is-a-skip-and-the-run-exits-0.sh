#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A subvolume deleted after mount checked its mount point and before
# mount(2) mounts it (a preloaded helper deletes u/s at that moment, as a
# user's rm loop did in 21 of 200 runs) is a skip, not a failure: the run
# says "skipped: subvolume N was deleted since the plan" on stderr, mounts
# every other subvolume and exits 0.  IDs from btrfs subvolume list,
# mounts from findmnt.
source "$(dirname -- "$0")/mount-lib.sh"
: "${MOUNT_HOOK_SO:?meson passes the helper}"
setup_mount_export

u=$FEX/u
mkdir -- "$u"
btrfs -q subvolume create "$u/s"
btrfs -q subvolume create "$u/t"
id=$(expected_subvols | awk -F'\t' -v p="$u/s" '$2 == p { print $1 }')
expected_subvols | cut -f2 | grep -vxF "$u/s" >"$OUT/expected"

# shellcheck disable=SC2034 # run_cli (tests/root/lib.sh) reads it
# A sanitizer build's runtime must come first unless told otherwise.
RUN_WRAPPER=(env DELETE_AT_MOUNT="$u/s" LD_PRELOAD="$MOUNT_HOOK_SO"
	ASAN_OPTIONS="verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}")
mount_cmd real --exports "$EXPORTS"
check_mount_rc real 0
check_eq "the run says it skipped the deleted one" \
	"btrfs-ino: mount: $u/s: skipped: subvolume $id was deleted since the plan" \
	"$(cat "$OUT/real.err")"
[[ -e $u/s ]] && fail "the helper did not delete $u/s"
mount_table | grep -vxF -f "$OUT/mounts.before" | cut -f1 | sort >"$OUT/mounted"
check_files_eq "every other subvolume is mounted" <(sort "$OUT/expected") "$OUT/mounted"
finish
