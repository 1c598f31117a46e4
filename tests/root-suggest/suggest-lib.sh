# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the suggest tests: the root suite's fixture and assertions, plus
# running "btrfs-ino suggest" and the expectations from btrfs-progs.
# shellcheck shell=bash disable=SC2119
SUGGEST_TESTS_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../root/lib.sh
source "$SUGGEST_TESTS_DIR/../root/lib.sh"

# setup_export: the classic fixture, with fex exported the way the user
# report had it, in $EXPORTS.
setup_export() {
	setup_fixture
	FEX=$MNT/fex
	EXPORTS=$OUT/exports
	printf '%s\n' "$FEX 127.0.0.1(rw,async,no_subtree_check,no_root_squash)" >"$EXPORTS"
}

# suggest NAME ARGS...: run_cli suggest -q, the exit status in SUGGEST_RC.
suggest() {
	local name=$1
	shift
	run_cli suggest "$name" -q "$@"
	SUGGEST_RC=$RUN_RC
}

check_suggest_rc() {
	check_rc "$1" "$SUGGEST_RC" "$2"
}

# expected_subvols: "ID<TAB>PATH" of every subvolume below $FEX, sorted by
# path, from `btrfs subvolume list` (paths relative to the top level).
expected_subvols() {
	btrfs subvolume list "$MNT" | awk -v mnt="$MNT" '
		{ path = $0; sub(/^.* path /, "", path) }
		path ~ /^fex\// { printf "%s\t%s/%s\n", $2, mnt, path }' | sort -t $'\t' -k2
}

# expected_plain_subvols: expected_subvols without the snapshots (those
# whose parent_uuid btrfs subvolume list -q shows), which suggest leaves to
# btrfs-ino mount.
expected_plain_subvols() {
	btrfs subvolume list -q "$MNT" | awk -v mnt="$MNT" '
		{ path = $0; sub(/^.* path /, "", path) }
		path ~ /^fex\// && / parent_uuid - / { printf "%s\t%s/%s\n", $2, mnt, path }' |
		sort -t $'\t' -k2
}

# config_lines FILE: the lines of FILE that are neither comments nor blank.
config_lines() {
	grep -v -e '^#' -e '^[[:space:]]*$' "$1" || true
}

# apply_and_run FSTAB COMMAND...: in a private mount namespace, mount every
# line of FSTAB (mount -a -T) and run COMMAND; the mounts end with it.
apply_and_run() {
	local fstab=$1
	shift
	# Without udev (no /dev/disk/by-uuid) libblkid trusts its cache, which
	# still maps a reused loop device to an earlier fixture's UUID and so
	# cannot find UUID= lines: probe the devices afresh instead.
	# shellcheck disable=SC2016 # expanded by the inner bash
	BLKID_FILE=/dev/null unshare -m --propagation private -- bash -c 'mount -a -T "$1" || exit 99; shift; "$@"' \
		bash "$fstab" "$@"
}

# BLOCKS: every --format name, in the order of the full report.
# shellcheck disable=SC2034 # for the sourcing tests to loop over
BLOCKS=(server-fstab mount-units exports exports-nohide client-fstab autofs snapshot-hook)

# format_output FORMAT [ARGS...]: "suggest --format FORMAT ARGS $FEX" into
# $OUT/format-FORMAT, checked to exit 1.
format_output() {
	local format=$1
	shift
	suggest "format-$format" --exports "$EXPORTS" --format "$format" "$@" "$FEX"
	check_suggest_rc "format-$format" 0
}

# block_of_report FILE FORMAT: the lines of the full report's block that
# ends its heading with "(--format FORMAT)", up to the next "## " heading,
# without the blank line before it.
block_of_report() {
	awk -v f="(--format $2)" '
		index($0, "## ") == 1 {
			if (on)
				exit
			on = substr($0, length($0) - length(f) + 1) == f
			next
		}
		on { line[n++] = $0 }
		END {
			while (n > 0 && line[n - 1] == "")
				n--
			for (i = 0; i < n; i++)
				print line[i]
		}' "$1"
}

# apply_replacements BLOCK FILE: FILE as it reads after doing what BLOCK (an
# exports block) says (apply-replacements.awk).  Prints the result.
apply_replacements() {
	awk -v file="$2" -f "$SUGGEST_TESTS_DIR/apply-replacements.awk" "$1" "$2"
}
