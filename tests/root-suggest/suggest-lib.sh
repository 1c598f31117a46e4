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

# apply_all EXPORTS COMMAND...: apply_and_run the fstab $OUT/fstab (the
# suggested server-fstab block), then btrfs-ino mount below $FEX with
# EXPORTS, then COMMAND: the server as the suggestion leaves it.
apply_all() {
	local exports=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner bash
	apply_and_run "$OUT/fstab" bash -c '"$1" mount -q --exports "$2" "$3" >/dev/null || exit 98
		shift 3; "$@"' bash "$BTRFS_INO" "$exports" "$FEX" "$@"
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

# setup_config_paths: a scratch btrfs with the export $EXP (root's, 0755)
# and subvolumes below it along directories of every kind, for the rule that
# root's configuration names only paths no user can change.  Sets EXPORTS
# (exporting $EXP), USER_ID (nobody's uid, the "user"), and two lists of
# full paths, each sorted: SAFE_SUBVOLS (every directory from $EXP to the
# parent root's and writable by no one else: they get lines) and
# UNSAFE_SUBVOLS with UNSAFE_DIRS (the first directory at fault, from the
# top) and UNSAFE_WHY (its reason as the comments phrase it).
setup_config_paths() {
	setup_scratch
	mount_loop btrfs 256M "$WORK/mnt"
	EXP=$WORK/mnt/export
	USER_ID=$(id -u nobody)
	EXPORTS=$OUT/exports
	printf '%s\n' "$EXP 127.0.0.1(rw,no_subtree_check)" >"$EXPORTS"
	install -d -m 0755 -o 0 -g 0 -- "$EXP" "$EXP/proj" "$EXP/proj/area" "$EXP/home" \
		"$EXP/team" "$EXP/drop" "$EXP/acl"
	# The user's directories: the attack of #36 (later/ renamed away, a link
	# put at later/sub).
	install -d -m 0755 -o "$USER_ID" -- "$EXP/alice" "$EXP/alice/later"
	# Root's directory in the user's: the user can rename it all the same.
	install -d -m 0755 -o 0 -g 0 -- "$EXP/alice/kept"
	chmod 0775 -- "$EXP/team"
	chmod 1777 -- "$EXP/drop"
	# A named user may write (rwx), the mask may not: mode 0755.
	python3 -c 'import os, struct, sys
e = [(1, 7, 0xffffffff), (2, 7, int(sys.argv[2])), (4, 5, 0xffffffff),
     (0x10, 5, 0xffffffff), (0x20, 5, 0xffffffff)]
os.setxattr(sys.argv[1], "system.posix_acl_access",
            struct.pack("<I", 2) + b"".join(struct.pack("<HHI", *x) for x in e))' \
		"$EXP/acl" "$USER_ID"
	local s
	for s in proj/area/sub home/alice alice/later/sub alice/kept/sub team/sub drop/sub acl/sub; do
		btrfs -q subvolume create -- "$EXP/$s" >/dev/null
	done
	# The user's own subvolume in root's directory is safe; one nested in it is not.
	chown -- "$USER_ID" "$EXP/home/alice"
	btrfs -q subvolume create -- "$EXP/home/alice/project" >/dev/null
	# shellcheck disable=SC2034 # for the sourcing tests
	SAFE_SUBVOLS=$(printf '%s\n' "$EXP/home/alice" "$EXP/proj/area/sub" | sort)
	UNSAFE_SUBVOLS=$(printf '%s\n' "$EXP/acl/sub" "$EXP/alice/kept/sub" "$EXP/alice/later/sub" "$EXP/drop/sub" \
		"$EXP/home/alice/project" "$EXP/team/sub" | sort)
	# In the order of UNSAFE_SUBVOLS.
	UNSAFE_DIRS=$(printf '%s\n' "$EXP/acl" "$EXP/alice" "$EXP/alice" "$EXP/drop" "$EXP/home/alice" "$EXP/team")
	UNSAFE_WHY=$(printf '%s\n' "has an ACL that lets others write" "is owned by uid $USER_ID" "is owned by uid $USER_ID" \
		"is world-writable" "is owned by uid $USER_ID" "is group-writable")
}

# named_paths FORMAT FILE: the paths below $EXP that the configuration
# lines of FILE (suggest --format FORMAT --server srv) name, sorted: fstab
# mount points, units' Where=, exports paths, the autofs map's srv:PATH.
named_paths() {
	case $1 in
	server-fstab | client-fstab) config_lines "$2" | awk '{ print $2 }' ;;
	mount-units) sed -n 's/^Where=//p' "$2" ;;
	exports-nohide) config_lines "$2" | awk '{ print $1 }' ;;
	autofs) grep -o 'srv:[^ ]*' "$2" | sed 's/^srv://' ;;
	esac | awk -v top="$EXP" 'index($0, top "/") == 1' | sort -u
}

# left_notes FILE: "PATH|WHY" of each "# left to btrfs-ino mount" comment
# of FILE, sorted.
left_notes() {
	sed -n 's/^# left to btrfs-ino mount, named in no line: \(.*\): \(.*\), so a user could make the path lead elsewhere$/\1|\2/p' \
		"$1" | sort -u
}

# expected_left_notes: "PATH|DIR WHY" of each of UNSAFE_SUBVOLS.
expected_left_notes() {
	paste -d '|' <(printf '%s\n' "$UNSAFE_SUBVOLS") \
		<(paste -d ' ' <(printf '%s\n' "$UNSAFE_DIRS") <(printf '%s\n' "$UNSAFE_WHY"))
}

# setup_nested_exports: nested exports as real files have them, on one
# loop btrfs at $WORK/mnt: $EXP (ro) and $EXP/inner (rw) to 127.0.0.1, the
# subvolume $EXP/a to 127.0.0.2, subvolumes $EXP/a, $EXP/inner/b and
# $EXP/inner/b/c; the exports file in $EXPORTS, the subvolumes' paths
# (btrfs subvolume list) sorted in $OUT/subvols.
setup_nested_exports() {
	mount_loop btrfs 256M "$WORK/mnt"
	EXP=$WORK/mnt/exp
	mkdir -p -- "$EXP/inner"
	for s in a inner/b inner/b/c; do
		btrfs -q subvolume create -- "$EXP/$s" >/dev/null
	done
	EXPORTS=$OUT/etc-exports
	printf '%s\n' "$EXP 127.0.0.1(ro,no_subtree_check)" "$EXP/inner 127.0.0.1(rw,no_subtree_check)" \
		"$EXP/a 127.0.0.2(rw,no_subtree_check)" >"$EXPORTS"
	btrfs subvolume list "$WORK/mnt" | sed "s|^.* path |$WORK/mnt/|" | sort >"$OUT/subvols"
}
