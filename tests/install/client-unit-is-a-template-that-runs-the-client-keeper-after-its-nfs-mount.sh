#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# meson install puts btrfs-ino-client@.service in the systemd unit directory,
# enables nothing (systemd-units-verify-and-are-installed-not-enabled checks
# the whole tree), and an instance named after an NFS mount point, escaped as
# systemd-escape --path escapes it, verifies: it needs that mount and starts
# after it (RequiresMountsFor=%f), runs the client keeper, btrfs-ino mount
# --watch --client, on that path, restarted if it fails, and walks again on
# SIGHUP (systemctl reload).
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
command -v systemd-analyze >/dev/null || skip_or_fail "needs systemd-analyze"
command -v systemd-escape >/dev/null || skip_or_fail "needs systemd-escape"

TMP=$(mktemp -d /tmp/bino-install-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
install_units "$TMP"
unitdir=$UNITDIR
template=$unitdir/btrfs-ino-client@.service
[[ -f $template ]] || fail "no btrfs-ino-client@.service in $unitdir: $(ls "$unitdir" 2>&1)"

instance="btrfs-ino-client@$(systemd-escape --path /nfs/data).service"
check_eq "the instance for /nfs/data" "btrfs-ino-client@nfs-data.service" "$instance"
mkdir "$TMP/units"
cp -- "$template" "$TMP/units/$instance"
(cd "$TMP/units" && systemd-analyze verify --man=no "./$instance") \
	>"$TMP/verify" 2>&1 || fail "systemd-analyze verify fails: $(cat "$TMP/verify")"
[[ ! -s $TMP/verify ]] || fail "systemd-analyze verify says: $(cat "$TMP/verify")"

value() { # FILE KEY: the value of KEY= in FILE
	sed -n "s/^$2=//p" "$1"
}
check_eq "RequiresMountsFor" "%f" "$(value "$template" RequiresMountsFor)"
check_eq "Type" exec "$(value "$template" Type)"
check_eq "ExecStart" "$TMP/root/bin/btrfs-ino mount --watch --client --quiet %f" \
	"$(value "$template" ExecStart)"
check_eq "Restart" on-failure "$(value "$template" Restart)"
# shellcheck disable=SC2016 # systemd expands $MAINPID, not the shell
check_eq "ExecReload" '/bin/kill -HUP $MAINPID' "$(value "$template" ExecReload)"
printf '%s: ok\n' "$TEST_NAME"
