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

# A watch test waits for each event it expects (a mount, the keeper's line)
# for up to WATCH_DEADLINE seconds, which only a keeper that never acts
# reaches: on a loaded machine (two cores, a load of 8) one of the keeper's
# seconds takes several.  How soon the keeper acts is counted in its own
# looks instead (keeper_trace, looks_until), which load does not change.
WATCH_DEADLINE=${WATCH_DEADLINE:-30}

# watch_start NAME ARGS...: "btrfs-ino mount --watch ARGS" in the background
# (stopped by the fixture's cleanup), stdout in $OUT/NAME, stderr in
# $OUT/NAME.err, its PID in WATCH_PID; returns once its first pass has
# watched a filesystem ("watching" on stderr), or fails after
# WATCH_DEADLINE seconds.
watch_start() {
	local name=$1 i
	shift
	"${RUN_WRAPPER[@]}" "$BTRFS_INO" mount --watch "$@" >"$OUT/$name" \
		2>"$OUT/$name.err" &
	WATCH_PID=$!
	for ((i = 0; i < WATCH_DEADLINE * 10; i++)); do
		grep -q ': watching$' "$OUT/$name.err" && return 0
		if ! kill -0 "$WATCH_PID" 2>/dev/null; then
			fail "mount --watch ended early: $(cat "$OUT/$name.err")"
			return 1
		fi
		sleep 0.1
	done
	fail "mount --watch never said it was watching: $(cat "$OUT/$name.err")"
	return 1
}

# watch_start_elsewhere ID: watch_start watch (the fixture's export), with a
# second mount of subvolume ID at $FEX/elsewhere made once it watches, which
# a deletion of that subvolume leaves stale ("//deleted").
watch_start_elsewhere() {
	mkdir -- "$FEX/elsewhere"
	watch_start watch --exports "$EXPORTS" "$FEX" || return 1
	mount -t btrfs -o "subvolid=$1" "$LOOP" "$FEX/elsewhere"
}

# keeper_trace: strace attached to the keeper (WATCH_PID), its openat,
# openat2, mount, umount2 and stat calls in $OUT/trace (line by line, as
# made); returns once the keeper is idle, two looks in a row with no pass
# after them, so that a test counting passes from there never counts one
# still due to what came before (a pass after the mount table changed,
# the keeper's own first mounts included).  Each second the keeper looks:
# it opens each watched filesystem's commit_stats, then reads the mount
# table.  A pass opens commit_stats too (the watches it makes), then
# resolves the export and every planned path with openat2; a mount step is
# a mount call.
keeper_trace() {
	command -v strace >/dev/null || skip_or_fail "needs strace"
	strace -f -qq -e trace=openat,openat2,mount,umount2,newfstatat,statx \
		-o "$OUT/trace" -p "$WATCH_PID" &
	# shellcheck disable=SC2034 # the tests stop it
	TRACER_PID=$!
	eventually keeper_idle && return 0
	fail "strace never saw the keeper idle: $(trace_events 0)"
	return 1
}

# LISTING: how strace shows a full pass's listing of the subvolume tree
# (every ROOT_REF item from objectid 0); a quick pass searches only the
# links of the subvolumes it plans.
LISTING='min_objectid=0, max_objectid=UINT64_MAX, .*min_type=BTRFS_ROOT_REF_KEY, max_type=BTRFS_ROOT_REF_KEY'

# ioctls_trace: strace attached to the keeper (WATCH_PID), its ioctl and
# mount calls in $OUT/ioctls; returns once the keeper has made two looks
# (BTRFS_IOC_FS_INFO) since its last full pass's listing: later calls are
# the test's to count.
ioctls_trace() {
	command -v strace >/dev/null || skip_or_fail "needs strace"
	strace -f -qq -e trace=ioctl,mount -o "$OUT/ioctls" -p "$WATCH_PID" &
	# shellcheck disable=SC2034 # the tests stop it
	TRACER_PID=$!
	eventually ioctls_idle && return 0
	fail "strace never saw the keeper idle"
	return 1
}

# ioctls_idle: two looks or more in $OUT/ioctls after its last listing.
ioctls_idle() {
	[[ -s $OUT/ioctls ]] && awk -v listing="$LISTING" '
		$0 ~ listing { looks = 0; next }
		/BTRFS_IOC_FS_INFO/ { looks++ }
		END { exit !(looks >= 2) }' "$OUT/ioctls"
}

# keeper_idle: the trace ends with two looks in a row, no pass after them.
keeper_idle() {
	[[ -s $OUT/trace && $(trace_events 0) =~ LL[^P]*$ ]]
}

# trace_mark: the trace's length now; later events are counted from it.
trace_mark() {
	wc -l <"$OUT/trace"
}

# trace_events MARK: the keeper's calls since MARK as one letter each: L a
# look, P a pass (its own commit_stats and openat2 calls: one letter), M a
# mount, U an unmount.
trace_events() {
	tail -n +"$(($1 + 1))" "$OUT/trace" | awk '
		/(newfstatat|statx)\(/ { next }
		function look() {
			if (stats) {
				printf "L"
				pass = 0
			}
			stats = 0
		}
		/commit_stats/ { look(); stats = 1; next }
		/openat2\(/ {
			stats = 0
			if (!pass)
				printf "P"
			pass = 1
			next
		}
		/(^| )mount\(/ { look(); printf "M"; next }
		/umount2\(/ { look(); printf "U"; next }
		{ look() }
		END { look() }'
}

# looks_until MARK LETTER: how many looks the keeper began after MARK before
# its first event LETTER (trace_events); fails if it made none yet.
looks_until() {
	local events
	events=$(trace_events "$1")
	[[ $events == *"$2"* ]] || return 1
	events=${events%%"$2"*}
	events=${events//[!L]/}
	echo "${#events}"
}

# looks_since MARK N: the keeper has begun N looks or more since MARK.
looks_since() {
	local events
	events=$(trace_events "$1")
	events=${events//[!L]/}
	((${#events} >= $2))
}

# stats_since MARK FILE N: the keeper has called stat on FILE N times or
# more since MARK.  A keeper that watches no filesystem (no PATH exported)
# still stats the exports files at each look.
stats_since() {
	local n
	n=$(tail -n +"$(($1 + 1))" "$OUT/trace" | grep -E '(newfstatat|statx)\(' |
		grep -cF "\"$2\"" || true)
	((n >= $3))
}

# mounted_within_looks MARK LETTER PATH...: the keeper's first LETTER event
# (M or U) since MARK came by its second look since MARK, or before MARK
# (then 0 looks); the looks in LOOKS_TOOK.  Fails, saying so, otherwise.
mounted_within_looks() {
	local mark=$1 letter=$2
	shift 2
	if ! LOOKS_TOOK=$(looks_until "$mark" "$letter"); then
		# Made before the mark: the call was in the trace already.
		LOOKS_TOOK=0
		[[ $(trace_events 0) == *"$letter"* ]] || {
			fail "strace saw no $letter call for $*"
			return 1
		}
	fi
	((LOOKS_TOOK <= 2)) && return 0
	fail "$*: the keeper acted at its look $LOOKS_TOOK, not by its second: $(trace_events "$mark")"
	return 1
}

# eventually COMMAND...: within WATCH_DEADLINE seconds.
eventually() {
	within "$WATCH_DEADLINE" "$@"
}

# within SECONDS COMMAND...: COMMAND succeeds, tried every 0.1 s for at
# most SECONDS; the seconds it took in WITHIN_TOOK.
within() {
	local tenths=$(($1 * 10)) i
	shift
	for ((i = 0; i <= tenths; i++)); do
		if "$@"; then
			# shellcheck disable=SC2034 # the tests report it
			WITHIN_TOOK=$(awk -v t="$i" 'BEGIN { printf "%.1f", t / 10 }')
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# not COMMAND...: COMMAND fails.
not() {
	! "$@"
}

# plan_start PATH: plan-then-apply for PATH (with $EXPORTS) as a coprocess;
# returns once it has planned, its "plan ID PATH" lines in the array PLANNED.
# The test then changes the tree, and plan_apply carries the plan out.
plan_start() {
	local line
	coproc PLAN { exec "${RUN_WRAPPER[@]}" "$PLAN_THEN_APPLY" "$EXPORTS" "$1" 2>&1; }
	# bash forgets a coproc's variables when it ends: keep our own copies.
	PLAN_HELPER_PID=$PLAN_PID
	exec {PLAN_FROM}<&"${PLAN[0]}" {PLAN_TO}>&"${PLAN[1]}"
	PLANNED=()
	while IFS= read -r line <&"$PLAN_FROM"; do
		[[ $line == planned ]] && return 0
		PLANNED+=("$line")
	done
	fail "plan-then-apply ended before it planned: ${PLANNED[*]}"
	return 1
}

# plan_apply: the plan of plan_start carried out, a line per step ("PATH
# mounted", "PATH Could not open: Stale file handle", ...) in APPLIED.
plan_apply() {
	echo go >&"$PLAN_TO"
	APPLIED=$(cat <&"$PLAN_FROM")
	wait "$PLAN_HELPER_PID" || fail "plan-then-apply failed: $APPLIED"
}

# as_user UID DIR COMMAND...: COMMAND as user UID (group UID, no others),
# run in DIR: what that user can do there without root (DIR is entered as
# root, since the fixture's own directory is root's alone, mode 0700).
as_user() {
	local uid=$1 dir=$2
	shift 2
	(cd -- "$dir" && setpriv --reuid="$uid" --regid="$uid" --clear-groups -- "$@")
}

# sigterm_ends_within_1_s PID: SIGTERM to the keeper PID (a job of the
# test) ends it within a second, with exit status 0; how long it took on
# stderr.  One that does not end is killed, so the test's cleanup goes on.
sigterm_ends_within_1_s() {
	local pid=$1 t0 rc=0
	t0=$EPOCHREALTIME
	kill -TERM "$pid"
	if ! within 1 not kill -0 "$pid" 2>/dev/null; then
		fail "still running 1 s after SIGTERM"
		kill -KILL "$pid"
	fi
	wait "$pid" || rc=$?
	echo "ended $(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }') s after SIGTERM" >&2
	check_eq "exit status after SIGTERM" 0 "$rc"
}
