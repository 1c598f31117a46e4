# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the CLI tests: the binary, a temporary directory, comparisons.
# Sourced after `set -euo pipefail`; BTRFS_INO is the built btrfs-ino.
# shellcheck shell=bash

: "${BTRFS_INO:?BTRFS_INO must name the built btrfs-ino}"

TMP=$(mktemp -d /tmp/bino-cli-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT

# fail MESSAGE: report and stop.
fail() {
	printf 'FAIL: %s\n' "$1" >&2
	exit 1
}

# skip_or_fail WHY: the test cannot run here: skip (77), or fail under
# CI=true, where nothing may skip.
skip_or_fail() {
	if [ "${CI:-}" = true ]; then
		fail "cannot run under CI: $1"
	fi
	printf 'SKIP: %s\n' "$1"
	exit 77
}

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	if [ "$2" != "$3" ]; then
		printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3" >&2
		exit 1
	fi
}

# expect_same_file WHAT EXPECTED_FILE ACTUAL_FILE: byte for byte.
expect_same_file() {
	if ! cmp -s -- "$2" "$3"; then
		printf 'FAIL: %s\n--- expected\n' "$1" >&2
		od -c -- "$2" | head -40 >&2
		printf -- '--- actual\n' >&2
		od -c -- "$3" | head -40 >&2
		exit 1
	fi
}

# run ARGS...: run btrfs-ino; sets RC, and OUT and ERR (file names).
# shellcheck disable=SC2034 # RC is the result: the sourcing test reads it
run() {
	OUT=$TMP/stdout
	ERR=$TMP/stderr
	RC=0
	"$BTRFS_INO" "$@" >"$OUT" 2>"$ERR" || RC=$?
}
