# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the CLI tests: the binary, a temporary directory, comparisons.
# Sourced after `set -euo pipefail`; BTRFS_INO is the built btrfs-ino.
# shellcheck shell=bash

: "${BTRFS_INO:?BTRFS_INO must name the built btrfs-ino}"

TMP=$(mktemp -d /tmp/bino-cli-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT

# shellcheck source=tests/lib/common.sh
source "$(dirname -- "${BASH_SOURCE[0]}")/../lib/common.sh"

# run ARGS...: run btrfs-ino; sets RC, and OUT and ERR (file names).
# shellcheck disable=SC2034 # RC is the result: the sourcing test reads it
run() {
	OUT=$TMP/stdout
	ERR=$TMP/stderr
	RC=0
	"$BTRFS_INO" "$@" >"$OUT" 2>"$ERR" || RC=$?
}

# audit_with_etab ETAB [ARG...]: run audit -q with --etab ETAB (and ARGs) on
# an exports file, $TMP/exports, that exports the directory DIR ($TMP/d) to
# every client; no fstab is checked.
audit_with_etab() {
	local etab=$1
	shift
	DIR=$TMP/d
	mkdir -p -- "$DIR"
	printf '%s *(rw,no_subtree_check)\n' "$DIR" >"$TMP/exports"
	run audit -q "$@" --etab "$etab" --exports "$TMP/exports" --fstab /dev/null
}
