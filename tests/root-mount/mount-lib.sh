# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the btrfs-ino mount tests: the classic fixture exported, running
# "btrfs-ino mount", and what to expect from btrfs-progs, find and findmnt.
# shellcheck shell=bash disable=SC2119
MOUNT_TESTS_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../root-suggest/suggest-lib.sh
source "$MOUNT_TESTS_DIR/../root-suggest/suggest-lib.sh"

# NO_OPENAT2 (the second registration of some tests in meson.build): btrfs-ino
# and plan-then-apply run as on a kernel without openat2(2), under this
# helper, so the mount points are resolved one name at a time.
if [[ -n ${NO_OPENAT2:-} ]]; then
	# shellcheck disable=SC2034 # run_cli (tests/root/lib.sh) reads it
	RUN_WRAPPER=("$NO_OPENAT2")
fi

# setup_mount_export: setup_export (fex exported to 127.0.0.1 in $EXPORTS),
# the placeholders find sees before anything is mounted in $OUT/placeholders,
# and the mount table in $OUT/mounts.before.
setup_mount_export() {
	setup_export
	find "$FEX" -type d -inum 2 | sort >"$OUT/placeholders"
	[[ -s $OUT/placeholders ]] || fail "fixture has no placeholder to avoid"
	mount_table >"$OUT/mounts.before"
}

# mount_table: every mount below $MNT, "TARGET<TAB>FSROOT<TAB>OPTIONS", sorted.
mount_table() {
	findmnt -n -l -o TARGET,FSROOT,OPTIONS | awk -v mnt="$MNT" '
		$1 == mnt || index($1, mnt "/") == 1 { print $1 "\t" $2 "\t" $3 }' | sort
}

# mount_cmd NAME ARGS...: run_cli mount -q, the exit status in MOUNT_RC.
mount_cmd() {
	local name=$1
	shift
	run_cli mount "$name" -q "$@"
	MOUNT_RC=$RUN_RC
}

check_mount_rc() {
	check_rc "$1" "$MOUNT_RC" "$2"
}

# expected_mount_lines: the "mount UUID=... subvolid=N on PATH" line of every
# subvolume below $FEX, parents first, from btrfs subvolume list and blkid.
expected_mount_lines() {
	local uuid
	uuid=$(blkid -p -s UUID -o value -- "$LOOP")
	expected_subvols | awk -F'\t' -v uuid="$uuid" '{ printf "mount UUID=%s subvolid=%s on %s\n", uuid, $1, $2 }'
}

# action_lines FILE: the action lines of a run (not its notes).
action_lines() {
	grep -E '^(mount|umount) ' "$1" || true
}
