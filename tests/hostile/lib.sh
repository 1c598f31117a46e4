# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the hostile suite: a scratch btrfs and tmpfs built per test, and
# runs of the CLI bounded in time.  The skip rules, assertions and cleanup
# are those of the root suite (tests/root/lib.sh).
#
# A test sources this file, calls setup_scratch, builds its adversarial tree
# under $BTRFS and/or $TMPFS, runs "$BTRFS_INO" through run_cli, and compares
# with what it created or with find/stat, never with btrfs-ino itself.
# shellcheck shell=bash
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/../root/lib.sh"

# Scratch mounts, all below $WORK/mnt so that the root suite's cleanup
# (classic-layout.sh destroy: every mount below $WORK/mnt, deepest first,
# then the loop devices of $WORK/btrfs.img) removes them:
#   $BTRFS  a fresh btrfs on a loop file ($SCRATCH_BTRFS_SIZE, default 4G
#           sparse), mounted with $SCRATCH_BTRFS_OPTS (default: defaults)
#   $TMPFS  a tmpfs mounted with $SCRATCH_TMPFS_OPTS (default: size=2g)
# Pass "btrfs", "tmpfs" or both.  Sets WORK, OUT, IMG, LOOP, BTRFS, TMPFS.
setup_scratch() {
	local want
	require_root_btrfs
	require_cli
	for tool in timeout setpriv prlimit; do
		command -v "$tool" >/dev/null || skip_or_fail "needs $tool"
	done
	WORK=$(mktemp -d "/tmp/$FIXTURE_PREFIX.XXXXXX")
	echo $$ >"$WORK/owner.pid"
	trap cleanup_fixture EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	OUT=$WORK/out
	mkdir -- "$OUT" "$WORK/mnt"
	BTRFS='' TMPFS=''
	for want in "$@"; do
		case $want in
		btrfs)
			IMG=$WORK/btrfs.img
			truncate -s "${SCRATCH_BTRFS_SIZE:-4G}" -- "$IMG"
			mkfs.btrfs -q -f -- "$IMG" >/dev/null
			LOOP=$(losetup --find --show -- "$IMG")
			BTRFS=$WORK/mnt/btrfs
			mkdir -- "$BTRFS"
			mount -t btrfs -o "${SCRATCH_BTRFS_OPTS:-defaults}" -- "$LOOP" "$BTRFS"
			;;
		tmpfs)
			TMPFS=$WORK/mnt/tmpfs
			mkdir -- "$TMPFS"
			mount -t tmpfs -o "${SCRATCH_TMPFS_OPTS:-size=2g}" tmpfs "$TMPFS"
			;;
		*)
			echo "setup_scratch: unknown filesystem '$want'" >&2
			exit 1
			;;
		esac
	done
}

# The scratch filesystems that were set up, for "for fs in $(scratch_fs)".
scratch_fs() {
	[[ -z $BTRFS ]] || echo "$BTRFS"
	[[ -z $TMPFS ]] || echo "$TMPFS"
}

# fs_label DIR: "btrfs" or "tmpfs", for messages.
fs_label() {
	case $1 in
	"$BTRFS"*) echo btrfs ;;
	"$TMPFS"*) echo tmpfs ;;
	*) echo "?" ;;
	esac
}

# run_cli NAME SECONDS ARGS...: "btrfs-ino ARGS" with stdout in $OUT/NAME,
# stderr in $OUT/NAME.err and the exit status in RC; killed (and failed)
# after SECONDS: a hang is a failure, never a stuck suite.  A death by a
# signal fails too.  CLI_PREFIX (an array) goes before the binary, e.g.
# (setpriv ...) or (prlimit --nofile=16).
run_cli() {
	local name=$1 seconds=$2
	shift 2
	RC=0
	timeout -k 5 "$seconds" "${CLI_PREFIX[@]}" "$BTRFS_INO" "$@" \
		>"$OUT/$name" 2>"$OUT/$name.err" || RC=$?
	if ((RC == 124 || RC == 137)); then
		fail "$name: btrfs-ino $* did not finish within ${seconds}s"
	elif ((RC >= 128)); then
		fail "$name: btrfs-ino $* died of signal $((RC - 128))"
	fi
	if ((RC >= 124)); then
		sed -n '1,20s/^/  stderr: /p' "$OUT/$name.err" >&2
	fi
}
CLI_PREFIX=()

# check_rc NAME EXPECTED...: the last run_cli exited with one of EXPECTED.
check_rc() {
	local name=$1
	shift
	if [[ " $* " != *" $RC "* ]]; then
		fail "$name: exit status expected $*, got $RC"
		sed -n '1,10s/^/  stderr: /p' "$OUT/$name.err" >&2
	fi
}

# json_paths FILE: the raw bytes of every entry path in a walk's JSON Lines,
# each followed by NUL (path_base64 when present, else path).
json_paths() {
	jq -r 'select(.event == "entry") |
		if .path_base64 then .path_base64 else (.path | @base64) end' "$1" |
		perl -MMIME::Base64 -ne 'chomp; print decode_base64($_), "\0"'
}

# sorted0 FILE: NUL-separated records of FILE, sorted bytewise.
sorted0() {
	LC_ALL=C sort -z -- "$1"
}

# is_sanitized: whether the CLI was built with AddressSanitizer, whose
# allocator makes RSS figures meaningless.
is_sanitized() {
	ldd "$BTRFS_INO" 2>/dev/null | grep -q -e libasan -e libubsan ||
		ldd "$(dirname -- "$BTRFS_INO")/../lib/libbtrfsino.so.1" 2>/dev/null | grep -q libasan
}
