#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The installed services are sandboxed: systemd-analyze security rates
# btrfs-ino-audit.service (it only reads) at most 2.5 and
# btrfs-ino-mount.service and an instance of btrfs-ino-client@.service at
# most 5.0, and the two keepers set none of the settings that would give
# them a mount namespace of its own, where their mounts would be lost to
# nfsd or to the client's users (systemd.exec(5), under PrivateMounts=).
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
command -v systemd-analyze >/dev/null || skip_or_fail "needs systemd-analyze"
systemd-analyze security --help 2>/dev/null | grep -q -- '--offline' ||
	skip_or_fail "systemd-analyze security has no --offline (systemd < 250)"

AUDIT_BUDGET=2.5
MOUNT_BUDGET=5.0
# Every setting that makes systemd set up a mount namespace for a service
# (systemd 252's exec_needs_mount_namespace(), as systemd.exec(5) lists
# them under PrivateMounts= and the settings themselves).
NAMESPACE_SETTINGS=(
	ProtectSystem ProtectHome PrivateTmp PrivateDevices PrivateMounts
	PrivateIPC IPCNamespacePath ProtectProc ProcSubset ProtectKernelTunables
	ProtectKernelModules ProtectKernelLogs ProtectControlGroups
	ReadWritePaths ReadOnlyPaths InaccessiblePaths ExecPaths NoExecPaths
	BindPaths BindReadOnlyPaths TemporaryFileSystem RootDirectory RootImage
	MountImages ExtensionImages ExtensionDirectories LogNamespace MountFlags
	DynamicUser
)

TMP=$(mktemp -d /tmp/bino-install-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
install_units "$TMP"
unitdir=$UNITDIR

# exposure UNIT: the overall exposure systemd-analyze gives the installed
# UNIT, as printed ("→ Overall exposure level for UNIT: 1.2 OK").
exposure() {
	local out
	out=$(cd "$unitdir" && systemd-analyze security --offline=true --no-pager "./$1" 2>&1) ||
		fail "systemd-analyze security $1 fails: $(tail -n 5 <<<"$out")"
	sed -n "s/.*Overall exposure level for $1: \([0-9][0-9]*\.[0-9]\).*/\1/p" <<<"$out"
}

# within SCORE BUDGET: whether SCORE <= BUDGET, both decimals.
within() {
	awk -v score="$1" -v budget="$2" 'BEGIN { exit !(score <= budget) }'
}

# A template is rated through an instance (for /nfs/data).
client_unit=btrfs-ino-client@nfs-data.service
[[ -f $unitdir/btrfs-ino-client@.service ]] || fail "btrfs-ino-client@.service is not installed in $unitdir"
cp -- "$unitdir/btrfs-ino-client@.service" "$unitdir/$client_unit"
for unit_budget in "btrfs-ino-audit.service $AUDIT_BUDGET" "btrfs-ino-mount.service $MOUNT_BUDGET" \
	"$client_unit $MOUNT_BUDGET"; do
	read -r unit budget <<<"$unit_budget"
	[[ -f $unitdir/$unit ]] || fail "$unit is not installed in $unitdir"
	score=$(exposure "$unit")
	[[ -n $score ]] || fail "no overall exposure level for $unit"
	within "$score" "$budget" ||
		fail "$unit is rated $score, above its budget of $budget"
	printf '%s: %s rated %s (budget %s)\n' "$TEST_NAME" "$unit" "$score" "$budget"
done

# The settings of the keepers, as systemd reads keys (leading blanks
# allowed, comments not settings).
for unit in btrfs-ino-mount.service "$client_unit"; do
	for setting in "${NAMESPACE_SETTINGS[@]}"; do
		pattern="^[[:space:]]*${setting}[[:space:]]*="
		if grep -Eq "$pattern" "$unitdir/$unit"; then
			fail "$unit sets $setting=, which gives it its own mount namespace: $(grep -E "$pattern" "$unitdir/$unit")"
		fi
	done
done
printf '%s: ok\n' "$TEST_NAME"
