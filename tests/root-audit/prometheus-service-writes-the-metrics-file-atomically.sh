#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The command of btrfs-ino-audit.service (as built, "$$" read as systemd
# reads it, the installed binary replaced by the built one) run with
# TEXTFILE_DIR set: it leaves exactly btrfs-ino.prom there, mode 0644, no
# temporary file, holding the audit's metrics, the fixture's export among
# them (the fixture's mount, as the one export); when the audit fails (exit 2) it leaves the old file alone.  Exit
# status 1 (findings) is a success of the unit.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture
unit=$(dirname -- "$BTRFS_INO")/systemd/btrfs-ino-audit.service
[[ -f $unit ]] || fail "no built unit $unit"

# The ExecStart value, its continuation lines joined.
cmd=$(awk '/^ExecStart=/ { on = 1; sub(/^ExecStart=/, "") }
	on { line = $0; more = sub(/\\$/, "", line); printf "%s", line; if (!more) exit }' "$unit")
cmd=${cmd//\$\$/\$}
cmd=$(sed -E "s#[^ ;]*/btrfs-ino audit#'$BTRFS_INO' audit#" <<<"$cmd")
mkdir -- "$OUT/textfile"

# The service audits the system's exports: here, the fixture's mount.  It
# succeeds with 0 or a status of SuccessExitStatus= (1, findings).
rc=0
TEXTFILE_DIR=$OUT/textfile as_server_exporting "$MNT" "$cmd" || rc=$?
[[ " 0 $(sed -n 's/^SuccessExitStatus=//p' "$unit") " == *" $rc "* ]] ||
	fail "the service command failed: exit status $rc"
check_eq "files left" "btrfs-ino.prom" "$(ls -A -- "$OUT/textfile")"
check_eq "mode" 644 "$(stat -c %a -- "$OUT/textfile/btrfs-ino.prom")"
grep -qF "btrfs_ino_audit_safe{path=\"$MNT\"}" "$OUT/textfile/btrfs-ino.prom" ||
	fail "no metric of the fixture's mount: $(head -n 20 "$OUT/textfile/btrfs-ino.prom")"

# A failing audit (a usage error here) keeps the last good metrics.
cp -- "$OUT/textfile/btrfs-ino.prom" "$OUT/before"
bad=${cmd/audit -q/audit -q --bogus}
rc=0
TEXTFILE_DIR=$OUT/textfile as_server_exporting "$MNT" "$bad" 2>/dev/null || rc=$?
check_eq "exit status of a failing run" 2 "$rc"
check_files_eq "the metrics after a failing run" "$OUT/before" "$OUT/textfile/btrfs-ino.prom"
check_eq "files left after a failing run" "btrfs-ino.prom" "$(ls -A -- "$OUT/textfile")"
finish
