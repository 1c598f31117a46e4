#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The README's two set-up commands: install what is needed, build, then run
# the demo (`demo`) or every test suite (`test`).  Run as root on Debian 12.
# `check` is the quicker tier for the edit-build-test loop: the suites that
# need no VM and no large trees, in stages it names and times (some 10
# minutes, where `test` takes 30).  The fastest tier, seconds, is meson's
# own: `meson test -C build --suite unit --suite abi --suite cli`.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
mode=${1:-}
build=${BUILD_DIR:-$here/build}
build_asan=${BUILD_ASAN_DIR:-$here/build-asan}

# What building and running need: the demo installs only these.
run_packages=(
	gcc pkg-config meson ninja-build
	libbtrfsutil-dev libmount-dev libjson-c-dev uthash-dev libroaring-dev libsmartcols-dev
	btrfs-progs util-linux coreutils jq
)
# What the tests add: Criterion, the peers the tests compare against, the
# NFS VM's parts, the sanitizer/fuzz/leak tools, strace for the tests that
# count system calls, promtool (in Debian's prometheus package) for the
# audit's metrics, shellcheck for the test scripts themselves, and
# debhelper and lintian for the Debian package test, mmdebstrap for the
# clean Debian root the -dev package is installed alone into.
test_packages=(
	clang libcriterion-dev
	findutils bfs fd-find xfsprogs bsdutils
	qemu-system-x86 busybox-static cpio kmod rpcbind nfs-kernel-server nfs-common
	dpkg-dev libtirpc-dev debhelper lintian mmdebstrap
	valgrind time strace systemd man-db rsync abigail-tools
	groff-base zsh fish
	prometheus
	shellcheck
)

# install_packages NAME...: apt-get install those not installed yet.
install_packages() {
	local missing=()
	local p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	if ((${#missing[@]})); then
		echo "== installing: ${missing[*]}"
		export DEBIAN_FRONTEND=noninteractive
		apt-get update -qq
		apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
	fi
}

# timed WHAT COMMAND...: run COMMAND, then say how long WHAT took (CI's
# per-stage times); its status is COMMAND's.
timed() {
	local what=$1 start=$SECONDS rc=0
	shift
	"$@" || rc=$?
	echo "== time: $what $((SECONDS - start)) s"
	return "$rc"
}

build_tree() {
	local dir=$1
	shift
	[ -f "$dir/build.ninja" ] || meson setup "$dir" "$here" "$@" >/dev/null
	ninja -C "$dir" >/dev/null
}

# suite_names LOG: the suites of every test in a meson JSON log that ran
# (neither skipped nor missing), one per line; a test's name is
# "PROJECT:SUITE[+SUITE...] / TEST".
suite_names() {
	jq -r 'select(.result != "SKIP") | .name | sub(" / .*$"; "") | sub("^[^:]*:"; "") |
		split("+")[]' "$1" | sort -u
}

# summarise LOG:SUITE,SUITE... ...: one plain line CI runners recognise, "tests:
# N passed, N failed, N skipped" (meson's own summary is not one).  A skipped
# test counts as failed too: CI must not go green because something was
# missing.  Each LOG must exist and hold at least one test that ran in every
# SUITE it names: a suite that vanished is a failure, not a silence.
summarise() {
	local spec log suites suite passed failed skipped absent=0
	passed=0 failed=0 skipped=0
	for spec in "$@"; do
		log=${spec%%:*}
		suites=${spec#*:}
		if [ ! -s "$log" ]; then
			echo "== no test log $log" >&2
			absent=$((absent + 1))
			continue
		fi
		passed=$((passed + $(jq -s '[.[] | select(.result == "OK" or .result == "EXPECTEDFAIL")] | length' "$log")))
		failed=$((failed + $(jq -s '[.[] | select(.result != "OK" and .result != "SKIP" and .result != "EXPECTEDFAIL")] | length' "$log")))
		skipped=$((skipped + $(jq -s '[.[] | select(.result == "SKIP")] | length' "$log")))
		jq -r 'select(.result == "SKIP") | "== skipped (counted as failed): \(.name)"' "$log" >&2
		jq -r 'select(.result != "OK" and .result != "SKIP" and .result != "EXPECTEDFAIL") |
			"== failed (\(.result)): \(.name)"' "$log" >&2
		for suite in ${suites//,/ }; do
			if ! suite_names "$log" | grep -qxF -- "$suite"; then
				echo "== suite '$suite' ran no test ($(basename -- "$log"))" >&2
				absent=$((absent + 1))
			fi
		done
	done
	echo "tests: $passed passed, $((failed + skipped + absent)) failed, $skipped skipped"
	[ "$((failed + skipped + absent))" -eq 0 ]
}

case "$mode" in
demo)
	# Only what running needs (no test tools): a build without the tests,
	# in a directory of its own so that the test build keeps its suites.
	echo "== the demo installs only what building and running need; './scripts/run.sh test' installs the rest"
	install_packages "${run_packages[@]}"
	build_tree "${BUILD_DEMO_DIR:-$here/build-demo}" -Dtests=disabled
	exec "$here/scripts/demo.sh" "${BUILD_DEMO_DIR:-$here/build-demo}/cli/btrfs-ino"
	;;
test)
	# Whatever the caller's environment (a runner without CI, sudo clearing
	# it), a test that lacks something fails here instead of skipping.
	export CI=true
	install_packages "${run_packages[@]}" "${test_packages[@]}"
	timed "build" build_tree "$build" -Dtests=enabled
	status=0
	# A log left by an earlier run must not stand in for a run that failed.
	rm -f -- "$build"/testlog-{main,asan,valgrind}.json "$build"/meson-logs/*.json \
		"$build_asan"/meson-logs/*.json "$build"/lane-vm.log
	# Every suite runs once, in two lanes on the two cores, each about half
	# of the work (every stage is CPU-bound, qemu's TCG most of all):
	#  - the VM lane: the VM suite (one qemu at a time), then the install
	#    suite's fresh builds of the plain tree, then fuzzing;
	#  - beside it: the sanitizer tree, where unit, cli and root (hostile's
	#    root tests among them) run under AddressSanitizer and
	#    UndefinedBehaviorSanitizer: the same code at the same optimisation
	#    as the plain build, with every access checked, so that they need
	#    not run twice; then the unit suite under valgrind, the Debian
	#    package test, the plain build's suites the sanitizers cannot run
	#    (unit's allocation-failure injection, memory's peak RSS, abi's
	#    symbols, exports-diff), and lint (shellcheck, on both cores).
	# The runs' logs are named apart (--logbase), and nothing is rebuilt
	# once both lanes run.  Root tests in both lanes at once are safe: each
	# has its own fixture directory and loop device, the VM's disks are
	# files in its own temp dir, and the package and documented-command
	# tests install into mount namespaces of their own.
	(
		lane=0
		timed "vm suite" meson test -C "$build" --no-rebuild --print-errorlogs \
			--num-processes 1 --suite vm --logbase vm || lane=1
		timed "install suite" meson test -C "$build" --no-rebuild --print-errorlogs \
			--num-processes 1 --suite install --no-suite package --logbase install || lane=1
		echo "== fuzz targets, 20 s each, after replaying their seeds and regressions"
		FUZZ_BUILD_DIR="$here/build-fuzz" timed "fuzz" "$here/tests/fuzz/run.sh" 20 || lane=1
		exit "$lane"
	) >"$build/lane-vm.log" 2>&1 &
	lane_pid=$!
	echo "== unit, cli and root under AddressSanitizer and UndefinedBehaviorSanitizer"
	timed "asan build" build_tree "$build_asan" -Db_sanitize=address,undefined -Db_lundef=false
	# Not the tests that measure peak memory (suite memory): here they would
	# measure the sanitizer's shadow memory; the plain build runs them.
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		timed "asan suites" meson test -C "$build_asan" --print-errorlogs --num-processes 1 \
		--suite unit --suite cli --suite root --no-suite memory --logbase asan || status=1
	echo "== the unit suite under valgrind (every Criterion worker checked)"
	# valgrind replaces malloc, so allocation-failure injection cannot run.
	BINO_UNIT_ALLOW_SKIP='exports_oom/*' timed "valgrind unit" \
		meson test -C "$build" --no-rebuild --print-errorlogs --num-processes 1 --suite unit \
		--wrap="$here/tests/valgrind-wrap.sh" --timeout-multiplier 10 --logbase valgrind || status=1
	timed "package test" meson test -C "$build" --no-rebuild --print-errorlogs \
		--num-processes 1 --suite package --logbase package || status=1
	timed "plain-build suites" meson test -C "$build" --no-rebuild --print-errorlogs \
		--num-processes 1 --suite unit --suite abi --suite exports-diff --suite memory \
		--no-suite vm --no-suite install --logbase main || status=1
	timed "lint suite" meson test -C "$build" --no-rebuild --print-errorlogs \
		--suite lint --logbase lint || status=1
	wait "$lane_pid" || status=1
	echo "== the VM lane (vm suite, install suite, fuzz):"
	cat -- "$build/lane-vm.log"
	# One main log as before: the suites of the plain build.
	cat -- "$build/meson-logs/main.json" "$build/meson-logs/lint.json" \
		"$build/meson-logs/vm.json" "$build/meson-logs/install.json" \
		"$build/meson-logs/package.json" >"$build/testlog-main.json" || status=1
	cp "$build_asan/meson-logs/asan.json" "$build/testlog-asan.json" || status=1
	# meson names a wrapped run's log after the wrapper too.
	cp "$build/meson-logs/valgrind-valgrind-wrap.sh.json" "$build/testlog-valgrind.json" || status=1
	summarise "$build/testlog-main.json:unit,abi,lint,exports-diff,root,hostile,install,memory,vm,package" \
		"$build/testlog-asan.json:unit,cli,root,hostile" \
		"$build/testlog-valgrind.json:unit" || status=1
	exit "$status"
	;;
check)
	# What `test` installs, the debug build only, and the suites quick
	# enough to run after every edit, in stages, each timed:
	#  - the fast tier: unit, abi, cli (hermetic or the built binary);
	#  - lint: shellcheck over every shell script (some 40 s of CPU, on
	#    both cores);
	#  - exports-diff (nfs-utils' source is fetched into the build tree
	#    once);
	#  - root (real btrfs; every root test is is_parallel: false).
	# Not hostile (its million-entry and 200k-file trees take some 12
	# minutes; its one CLI test goes too), install (a fresh build and
	# install per test), vm (qemu), nor the sanitizer, valgrind and fuzz
	# runs: `test` has them all.
	export CI=true
	start=$SECONDS
	echo "== check: unit, abi and cli (the fast tier), lint, exports-diff, root; not hostile, install, vm"
	install_packages "${run_packages[@]}" "${test_packages[@]}"
	timed "build" build_tree "$build" -Dtests=enabled
	status=0
	# A log left by an earlier run must not stand in for a run that failed.
	rm -f -- "$build"/testlog-check.json "$build"/meson-logs/check-*.json
	# check_stage WHAT LOGBASE MESON_TEST_ARGS...: one timed meson test run
	# of the debug build, its log meson-logs/check-LOGBASE.json.
	check_stage() {
		local what=$1 logbase=$2
		shift 2
		timed "$what" meson test -C "$build" --no-rebuild --print-errorlogs \
			--logbase "check-$logbase" "$@"
	}
	check_stage "fast tier (unit, abi, cli)" fast \
		--suite unit --suite abi --suite cli --no-suite hostile || status=1
	check_stage "lint suite" lint --suite lint || status=1
	check_stage "exports-diff suite" exports-diff --suite exports-diff || status=1
	check_stage "root suite" root --suite root --no-suite hostile || status=1
	cat -- "$build"/meson-logs/check-{fast,lint,exports-diff,root}.json \
		>"$build/testlog-check.json" || status=1
	summarise "$build/meson-logs/check-fast.json:unit,abi,cli" \
		"$build/meson-logs/check-lint.json:lint" \
		"$build/meson-logs/check-exports-diff.json:exports-diff" \
		"$build/meson-logs/check-root.json:root" || status=1
	echo "== time: check $((SECONDS - start)) s"
	exit "$status"
	;;
*)
	echo "usage: $0 demo|test|check" >&2
	exit 2
	;;
esac
