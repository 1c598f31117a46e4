# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the root suite: skip rules, the btrfs fixture and its cleanup, assertions.
#
# A test sources this file, calls setup_fixture, runs "$BTRFS_INO", computes
# what it expects from find, stat and btrfs-progs (never from btrfs-ino),
# compares with the check_* helpers and ends with finish.
#
# Without root, btrfs or a loop device a test is skipped (exit 77); under
# CI=true the same lack fails it, so CI can never go green by skipping.
# shellcheck shell=bash disable=SC2119
set -euo pipefail
export LC_ALL=C

ROOT_TESTS_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
SRCDIR=$(cd -- "$ROOT_TESTS_DIR/../.." && pwd)
LAYOUT=$SRCDIR/scripts/classic-layout.sh
# Every fixture lives in /tmp/$FIXTURE_PREFIX.XXXXXX, so leaks are findable.
FIXTURE_PREFIX=btrfs-ino-root-test
WORK=
# A root test reports every failed check of its run, then finish fails it.
FAIL_CONTINUES=true
# shellcheck source=tests/lib/common.sh
source "$ROOT_TESTS_DIR/../lib/common.sh"

# The test needs root, btrfs, a free loop device and the tools below.
require_root_btrfs() {
	local tool
	[[ $(id -u) == 0 ]] || skip_or_fail "needs root"
	for tool in mkfs.btrfs btrfs losetup findmnt mount umount jq find stat; do
		command -v "$tool" >/dev/null || skip_or_fail "needs $tool"
	done
	grep -qw btrfs /proc/filesystems || modprobe btrfs 2>/dev/null ||
		skip_or_fail "kernel has no btrfs"
	grep -qw btrfs /proc/filesystems || skip_or_fail "kernel has no btrfs"
	losetup -f >/dev/null 2>&1 || skip_or_fail "no free loop device"
}

# The CLI under test; meson passes its path.  Its absence is a build error,
# never a reason to skip.
require_cli() {
	if [[ -z ${BTRFS_INO:-} || ! -x $BTRFS_INO ]]; then
		printf '%s: FAIL: BTRFS_INO is not an executable: %s\n' \
			"$TEST_NAME" "${BTRFS_INO:-(unset)}" >&2
		exit 1
	fi
}

# BINO_TEST_NO_STATX_SUBVOL=1 (the suite's second registration in
# meson.build): every walk runs with --no-statx-subvol, as on a kernel
# without STATX_SUBVOL (before 6.10, e.g. Debian 12's 6.1).
if [[ ${BINO_TEST_NO_STATX_SUBVOL:-} == 1 && -n ${BTRFS_INO:-} &&
	$BTRFS_INO != "$ROOT_TESTS_DIR/btrfs-ino-no-statx-subvol.sh" ]]; then
	export BINO_TEST_REAL_BTRFS_INO=$BTRFS_INO
	BTRFS_INO=$ROOT_TESTS_DIR/btrfs-ino-no-statx-subvol.sh
	[[ -x $BINO_TEST_REAL_BTRFS_INO ]] || {
		printf '%s: FAIL: BTRFS_INO is not an executable: %s\n' \
			"$TEST_NAME" "$BINO_TEST_REAL_BTRFS_INO" >&2
		exit 1
	}
fi

# remove_work: remove WORK only when nothing is mounted below it; else say
# so and return 1.
remove_work() {
	# Not grep -q: with pipefail, findmnt's SIGPIPE would read as "absent".
	if [[ -n $(findmnt -n -l -o TARGET | grep -F -- "$WORK") ]]; then
		printf '%s: FAIL: %s still has mounts; left in place\n' "$TEST_NAME" "$WORK" >&2
		return 1
	fi
	rm -r --one-file-system -- "$WORK"
}

# stop_jobs: end every background job of the test and wait for it.  A
# stopped job keeps SIGTERM pending until it runs again, so each is
# continued too; a signal a traced job (the keeper under keeper_trace's
# strace) was stopped for is lost when its tracer, ended at the same time,
# goes first, so SIGTERM is sent again while any still runs, and after 5 s
# SIGKILL: the wait must never hang until the test's timeout.
stop_jobs() {
	local pid i
	for pid in $(jobs -p); do
		kill "$pid" 2>/dev/null || true
		kill -CONT "$pid" 2>/dev/null || true
	done
	for ((i = 0; i < 50; i++)); do
		[[ -n $(jobs -pr) ]] || break
		sleep 0.1
		for pid in $(jobs -pr); do
			kill "$pid" 2>/dev/null || true
		done
	done
	for pid in $(jobs -p); do
		kill -KILL "$pid" 2>/dev/null || true
	done
	wait 2>/dev/null || true
}

# Runs on every exit: stop our background jobs, destroy the fixture, remove
# the directory only when nothing is mounted below it.
cleanup_fixture() {
	local rc=$?
	trap - EXIT
	stop_jobs
	if [[ -n $WORK && -d $WORK ]]; then
		if ! "$LAYOUT" destroy "$WORK"; then
			printf '%s: FAIL: could not destroy the fixture in %s\n' "$TEST_NAME" "$WORK" >&2
			rc=1
		fi
		remove_work || rc=1
	fi
	exit "$rc"
}

# setup_fixture [--files N]: create the classic layout; sets WORK, MNT, LOOP,
# IMG, DEV and ID_* (see scripts/classic-layout.sh).
setup_fixture() {
	require_root_btrfs
	require_cli
	WORK=$(mktemp -d "/tmp/$FIXTURE_PREFIX.XXXXXX")
	echo $$ >"$WORK/owner.pid"
	# Signals end the script through exit, so the EXIT trap still runs.
	trap cleanup_fixture EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	"$LAYOUT" create "$WORK" "$@" >"$WORK/create.log"
	# shellcheck source=/dev/null
	source "$WORK/layout.env"
	OUT=$WORK/out
	mkdir -- "$OUT"
	# The helpers below split on tabs and newlines.
	if [[ -n $(find "$MNT" -name $'*[\t\n]*' -print -quit) ]]; then
		echo "fixture has names with tabs or newlines" >&2
		exit 1
	fi
}

# setup_scratch: an empty WORK directory (and OUT in it) for tests that make
# their own mounts; on exit whatever is mounted below WORK is unmounted,
# deepest first, and the loop devices listed in LOOPS are detached.
setup_scratch() {
	require_root_btrfs
	require_cli
	WORK=$(mktemp -d "/tmp/$FIXTURE_PREFIX.XXXXXX")
	LOOPS=()
	OUT=$WORK/out
	mkdir -- "$OUT"
	trap cleanup_scratch EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# mount_loop FSTYPE SIZE DIR: a fresh filesystem of FSTYPE on a loop file of
# SIZE in WORK, mounted at DIR; cleanup_scratch undoes both.
mount_loop() {
	local fstype=$1 size=$2 dir=$3 img=$WORK/$1.img loop
	truncate -s "$size" -- "$img"
	"mkfs.$fstype" -q "$img" >/dev/null
	loop=$(losetup -f --show -- "$img")
	LOOPS+=("$loop")
	mkdir -p -- "$dir"
	mount -t "$fstype" -- "$loop" "$dir"
}

cleanup_scratch() {
	local rc=$? target loop
	trap - EXIT
	stop_jobs
	while read -r target; do
		umount -- "$target" || umount -l -- "$target" || rc=1
	done < <(findmnt -n -l -o TARGET | grep -F -- "$WORK" | sort -r)
	for loop in "${LOOPS[@]}"; do
		losetup -d "$loop" 2>/dev/null || true
	done
	remove_work || rc=1
	exit "$rc"
}

# ---------------------------------------------------------------------------
# Running the CLI

# run_cli SUBCOMMAND NAME ARGS...: run "btrfs-ino SUBCOMMAND ARGS" with
# stdout in $OUT/NAME, stderr in $OUT/NAME.err and the exit status in
# RUN_RC, under the command in the array RUN_WRAPPER if a test sets one
# (strace, say).  Never aborts the test; a death by signal is reported.
# The walk, audit, suggest and mount tests each wrap it.
RUN_WRAPPER=()
run_cli() {
	local subcommand=$1 name=$2
	shift 2
	RUN_RC=0
	"${RUN_WRAPPER[@]}" "$BTRFS_INO" "$subcommand" "$@" >"$OUT/$name" \
		2>"$OUT/$name.err" || RUN_RC=$?
	if ((RUN_RC >= 128)); then
		fail "btrfs-ino $subcommand $* died of signal $((RUN_RC - 128))"
		sed -n '1,20s/^/  stderr: /p' "$OUT/$name.err" >&2
	fi
}

# check_rc NAME RC EXPECTED: the command run as NAME exited with RC, one of
# EXPECTED (a space-separated list of allowed values); else fail, with its
# stderr.
check_rc() {
	local name=$1 rc=$2 expected=$3
	if [[ " $expected " != *" $rc "* ]]; then
		fail "$name: exit status expected $expected, got $rc"
		sed -n '1,10s/^/  stderr: /p' "$OUT/$name.err" >&2
	fi
}

# walk NAME ARGS...: run_cli walk, the exit status in WALK_RC.
walk() {
	run_cli walk "$@"
	WALK_RC=$RUN_RC
}

# walk_tsv FILE: path, dev, subvolid, ino, type of each "entry" record.
walk_tsv() {
	jq -r 'select(.event == "entry") |
		[.path, .dev, (.subvolid|tostring), (.ino|tostring), .type] | @tsv' "$1"
}

# ---------------------------------------------------------------------------
# Independent expectations

# find_tsv [FIND ARGS...]: path, st_dev (decimal), ino, find type letter, nlink.
find_tsv() {
	find "$@" -printf '%p\t%D\t%i\t%y\t%n\n'
}

# devnum MAJ:MIN: the st_dev number as glibc's makedev() encodes it, which
# is what find -printf %D prints.
devnum() {
	local maj=${1%%:*} min=${1##*:}
	echo $(((min & 0xff) | ((maj & 0xfff) << 8) | ((min & ~0xff) << 12) | ((maj & ~0xfff) << 32)))
}

# rootids_of_dirs FILE: for each directory path in FILE (one per line),
# "path<TAB>rootid" as btrfs inspect-internal rootid says; "-" where it
# cannot tell (the empty placeholder dirs snapshots hold for subvolumes).
rootids_of_dirs() {
	local d id
	while IFS= read -r d; do
		id=$(btrfs inspect-internal rootid -- "$d" 2>/dev/null) || id=-
		printf '%s\t%s\n' "$d" "$id"
	done <"$1"
}

# ---------------------------------------------------------------------------
# Assertions beside tests/lib/common.sh's (fail, check_eq, check_files_eq,
# finish): each prints what was expected and what came, and counts the
# failure; finish turns the count into the exit status.

# check_walk_rc NAME EXPECTED: the walk run as NAME exited with EXPECTED
# (a space-separated list of allowed values).
check_walk_rc() {
	check_rc "$1" "$WALK_RC" "$2"
}

# check_json NAME: every line of the walk's stdout is a JSON object.
check_json() {
	if ! jq -e -s 'all(type == "object")' "$OUT/$1" >/dev/null 2>&1; then
		fail "$1: stdout is not JSON Lines:"
		sed -n '1,5s/^/  /p' "$OUT/$1" >&2
	fi
}
