#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino-audit.service and .timer as installed: systemd-analyze verify
# finds nothing to say, and the service runs PREFIX/bin/btrfs-ino itself
# (no shell, whose redirection followed links in the textfile directory),
# writing its metrics with --output-file into the directory it may write,
# and takes exit status 1 (findings, written too) for a success.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
command -v systemd-analyze >/dev/null || skip_or_fail "needs systemd-analyze"

TMP=$(mktemp -d /tmp/bino-install-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
# The prefix is a real directory (a link to the tree in DESTDIR), so that
# ExecStart= names an executable file as verify requires.
install_tree "$TMP" "$TMP/root"
ln -s -- "$DEST$TMP/root" "$TMP/root"
unitdir=$TMP/root/lib/systemd/system
if pkg-config --exists systemd; then
	unitdir=$(pkg-config --define-variable=rootprefix="$TMP/root" --variable=systemdsystemunitdir systemd)
fi
service=$unitdir/btrfs-ino-audit.service
[[ -f $service && -f $unitdir/btrfs-ino-audit.timer ]] ||
	fail "no audit units in $unitdir: $(ls "$unitdir" 2>&1)"

(cd "$unitdir" && systemd-analyze verify --man=no ./btrfs-ino-audit.service ./btrfs-ino-audit.timer) \
	>"$TMP/verify" 2>&1 || fail "systemd-analyze verify fails: $(cat "$TMP/verify")"
[[ ! -s $TMP/verify ]] || fail "systemd-analyze verify says: $(cat "$TMP/verify")"

value() { # KEY: the value of KEY= in the service
	sed -n "s/^$1=//p" "$service"
}
textfile_dir=$(value Environment | sed -n 's/^TEXTFILE_DIR=//p')
[[ $textfile_dir == /* ]] || fail "no TEXTFILE_DIR in Environment=: '$(value Environment)'"
read -r -a exec <<<"$(value ExecStart)"
expected=("$TMP/root/bin/btrfs-ino" audit -q --format prometheus
	--output-file "\${TEXTFILE_DIR}/btrfs-ino.prom")
[[ ${exec[*]} == "${expected[*]}" ]] || fail "ExecStart is '${exec[*]}'"
[[ $(value SuccessExitStatus) == 1 ]] || fail "SuccessExitStatus is '$(value SuccessExitStatus)'"
[[ $(value ReadWritePaths) == "-$textfile_dir" ]] ||
	fail "ReadWritePaths is '$(value ReadWritePaths)', not -$textfile_dir"
printf '%s: ok\n' "$TEST_NAME"
