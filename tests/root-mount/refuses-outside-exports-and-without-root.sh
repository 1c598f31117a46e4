#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Exit status 2 and nothing changed (findmnt) for: a PATH neither exported
# nor below an export (with a message naming it), a run as nobody without
# --dry-run, an unknown option; as nobody, --dry-run works (exit 0, the
# plan).  A PATH below the export that does not exist is reported and the
# rest done: exit 1.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export
# nobody must read the exports file and reach the tree.
chmod 755 "$WORK" "$OUT"
chmod 644 "$EXPORTS"

outside=$MNT/outside
btrfs -q subvolume create "$outside"
btrfs -q subvolume create "$outside/inner"
mount_cmd outside --exports "$EXPORTS" "$outside"
check_mount_rc outside 2
grep -qF "$outside: not exported nor below an export" "$OUT/outside.err" ||
	fail "no message naming the path outside the exports"
mount_cmd outside-too --exports "$EXPORTS" "$FEX" "$outside"
check_mount_rc outside-too 2
check_files_eq "nothing mounted after the refusals" "$OUT/mounts.before" <(mount_table)

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all -- "$@"
}
rc=0
as_nobody "$BTRFS_INO" mount -q --exports "$EXPORTS" >"$OUT/nobody" 2>"$OUT/nobody.err" || rc=$?
check_eq "exit status as nobody" 2 "$rc"
grep -q 'only root' "$OUT/nobody.err" || fail "no message about root"
rc=0
as_nobody "$BTRFS_INO" mount -q --dry-run --exports "$EXPORTS" >"$OUT/nobody-dry" 2>"$OUT/nobody-dry.err" || rc=$?
check_eq "exit status of --dry-run as nobody" 0 "$rc"
expected_mount_lines | sort >"$OUT/expected"
check_files_eq "the plan as nobody" "$OUT/expected" <(action_lines "$OUT/nobody-dry" | sort)
check_files_eq "nothing mounted as nobody" "$OUT/mounts.before" <(mount_table)

mount_cmd badopt --no-such-option
check_mount_rc badopt 2
grep -qF "Try 'btrfs-ino mount --help'" "$OUT/badopt.err" || fail "no usage hint"

mount_cmd missing --exports "$EXPORTS" "$FEX" "$FEX/does-not-exist"
check_mount_rc missing 1
grep -qF "$FEX/does-not-exist" "$OUT/missing.err" || fail "the missing path is not named"
check_files_eq "the rest is done" <(expected_mount_lines | sort) <(action_lines "$OUT/missing" | sort)
finish
