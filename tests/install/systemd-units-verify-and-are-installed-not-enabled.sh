#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# meson install puts btrfs-ino-mount.service in the systemd unit directory
# under the prefix, enables nothing (no symlink, no .wants directory), and
# systemd-analyze verify finds nothing to say about it as installed: one
# pass of PREFIX/bin/btrfs-ino mount before nfs-server.service starts, then
# the keeper, btrfs-ino mount --watch, restarted if it fails, and reloaded
# (a pass at once) with SIGHUP.
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
service=$unitdir/btrfs-ino-mount.service
[[ -f $service ]] || fail "no unit in $unitdir: $(ls "$unitdir" 2>&1)"

links=$(find "$DEST" \( -type l ! -name 'libbtrfsino.so*' \) -o -name '*.wants' | sed "s|^$DEST||")
[[ -z $links ]] || fail "install enables something: $links"

(cd "$unitdir" && systemd-analyze verify --man=no ./btrfs-ino-mount.service) \
	>"$TMP/verify" 2>&1 || fail "systemd-analyze verify fails: $(cat "$TMP/verify")"
[[ ! -s $TMP/verify ]] || fail "systemd-analyze verify says: $(cat "$TMP/verify")"

# The settings that make them do their job, as systemd parses them.
value() { # FILE KEY: the value of KEY= in FILE
	sed -n "s/^$2=//p" "$1"
}
# Type=exec: started once ExecStartPre= (the first pass) is done.
[[ $(value "$service" Type) == exec ]] || fail "the service is not Type=exec"
[[ " $(value "$service" Before) " == *" nfs-server.service "* ]] ||
	fail "the service is not ordered before nfs-server.service"
check_eq "ExecStartPre" "-$TMP/root/bin/btrfs-ino mount --quiet" "$(value "$service" ExecStartPre)"
check_eq "ExecStart" "$TMP/root/bin/btrfs-ino mount --watch --quiet" "$(value "$service" ExecStart)"
check_eq "Restart" on-failure "$(value "$service" Restart)"
# systemctl reload: the pass at once.
# shellcheck disable=SC2016 # systemd expands $MAINPID, not the shell
check_eq "ExecReload" '/bin/kill -HUP $MAINPID' "$(value "$service" ExecReload)"
printf '%s: ok\n' "$TEST_NAME"
