#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The fixture never outlives its test: not when the test fails, not when it
# is killed by a timeout, and no earlier test of the suite left one mounted.
# Meson runs this one last (priority).
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
require_root_btrfs
require_cli

tmp=$(mktemp -d /tmp/btrfs-ino-root-cleanup.XXXXXX)
trap 'rm -rf -- "$tmp"' EXIT

# A fixture's path is gone, and no mount or loop device refers to it.
check_gone() {
	local what=$1 work=$2
	[[ -n $work ]] || { fail "$what: the child did not report its fixture"; return; }
	[[ ! -e $work ]] || fail "$what: $work still exists"
	check_eq "$what: mounts below $work" "" "$(findmnt -n -l -o TARGET | grep -F -- "$work" || true)"
	check_eq "$what: loop devices of $work" "" "$(losetup -a | grep -F -- "$work" || true)"
}

# A test that fails right after making its fixture.
rc=0
bash -c 'source "$1/lib.sh"; setup_fixture; echo "$WORK" >"$2"; false' \
	failing-child "$ROOT_TESTS_DIR" "$tmp/failing" >/dev/null || rc=$?
check_eq "exit status of the failing child" 1 "$rc"
check_gone "failing child" "$(cat "$tmp/failing" 2>/dev/null || true)"

# A test killed by SIGTERM (meson's timeout) while a bind mount is up.
bash -c 'source "$1/lib.sh"; setup_fixture
	mount --bind "$MNT/fex" "$MNT/fex/spool/dir/loop"
	echo "$WORK" >"$2"; sleep 60 & wait $!' \
	killed-child "$ROOT_TESTS_DIR" "$tmp/killed" >/dev/null &
child=$!
for _ in $(seq 100); do
	[[ ! -s $tmp/killed ]] || break
	sleep 0.1
done
kill -TERM "$child"
rc=0
wait "$child" || rc=$?
check_eq "exit status of the killed child" 143 "$rc"
check_gone "killed child" "$(cat "$tmp/killed" 2>/dev/null || true)"

# No fixture of an earlier test (whose process is gone) is still there.
# Fixtures of tests running now, e.g. in another build directory, are not
# leaks: their owner.pid is alive.
leaks=$(
	{ findmnt -n -l -o TARGET; losetup -n -l -O BACK-FILE; } |
		{ grep -o "/tmp/$FIXTURE_PREFIX\.[A-Za-z0-9]*" || true; } | sort -u |
		while IFS= read -r dir; do
			pid=$(cat "$dir/owner.pid" 2>/dev/null || echo 0)
			kill -0 "$pid" 2>/dev/null || echo "$dir"
		done
)
check_eq "fixtures left mounted or attached by earlier tests" "" "$leaks"

finish
