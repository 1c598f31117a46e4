# SPDX-License-Identifier: LGPL-2.1-or-later
# The one vocabulary of the shell tests, sourced by every suite's lib.sh so
# that a test of any suite reports alike: fail, skip_or_fail, check_eq,
# check_files_eq.  Each message starts with the test's name.
#
# By default fail stops the test (exit 1).  A suite whose tests report every
# failed check in one run (the root suites) sets FAIL_CONTINUES=true before
# sourcing: fail then counts into FAILURES, and finish gives the status.
# shellcheck shell=bash

# Sourced once: a test of two suites' libraries keeps its count.
[[ -z ${BINO_TEST_COMMON:-} ]] || return 0
BINO_TEST_COMMON=1
TEST_NAME=${TEST_NAME:-$(basename -- "$0" .sh)}
FAIL_CONTINUES=${FAIL_CONTINUES:-false}
FAILURES=0

# fail MESSAGE...: report a failed expectation; stop, or count it (above).
fail() {
	printf '%s: FAIL: %s\n' "$TEST_NAME" "$*" >&2
	FAILURES=$((FAILURES + 1))
	[[ $FAIL_CONTINUES == true ]] || exit 1
}

# skip_or_fail WHY: the test cannot run here: skip (exit 77), or, under
# CI=true, where nothing may skip, fail and stop.
skip_or_fail() {
	if [[ ${CI:-} == true ]]; then
		printf '%s: FAIL: cannot run under CI: %s\n' "$TEST_NAME" "$*" >&2
		exit 1
	fi
	printf '%s: SKIP: %s\n' "$TEST_NAME" "$*"
	exit 77
}

# check_eq WHAT EXPECTED ACTUAL: the two strings are equal; a difference is
# shown on one line, or as two blocks when either spans lines.
check_eq() {
	local what=$1 expected=$2 actual=$3
	[[ $expected == "$actual" ]] && return 0
	if [[ $expected == *$'\n'* || $actual == *$'\n'* ]]; then
		fail "$(printf '%s\n--- expected\n%s\n--- actual\n%s' "$what" "$expected" "$actual")"
	else
		fail "$what: expected '$expected', got '$actual'"
	fi
}

# check_files_eq WHAT EXPECTED_FILE ACTUAL_FILE: the files are equal byte
# for byte; a difference is shown as "diff -u expected actual" (its first
# 40 lines), or as od -c of both when either holds more than printable
# ASCII, tabs and newlines.
check_files_eq() {
	local what=$1 expected=$2 actual=$3
	cmp -s -- "$expected" "$actual" && return 0
	if (($(LC_ALL=C tr -d '\t\n\040-\176' <"$expected" | wc -c) +
		$(LC_ALL=C tr -d '\t\n\040-\176' <"$actual" | wc -c))); then
		{
			printf -- '--- expected\n'
			od -c -- "$expected" | head -40
			printf -- '--- actual\n'
			od -c -- "$actual" | head -40
		} >&2
	else
		diff -u --label expected --label actual -- "$expected" "$actual" | sed -n '3,43p' >&2 || true
	fi
	fail "$what: differs (above: expected, then actual)"
}

# finish: end a test whose failures were counted: exit 1 when any was.
finish() {
	if ((FAILURES)); then
		printf '%s: %d check(s) failed\n' "$TEST_NAME" "$FAILURES" >&2
		exit 1
	fi
	printf '%s: ok\n' "$TEST_NAME"
	exit 0
}
