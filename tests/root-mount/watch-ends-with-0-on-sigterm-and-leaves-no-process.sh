#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch as a service is stopped: SIGTERM ends it between passes,
# with exit status 0, within 3 s, leaving no process behind.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
kill -TERM "$WATCH_PID"
if ! within 3 not kill -0 "$WATCH_PID" 2>/dev/null; then
	fail "still running 3 s after SIGTERM"
	kill -KILL "$WATCH_PID"
	finish
fi
rc=0
wait "$WATCH_PID" || rc=$?
check_eq "exit status after SIGTERM" 0 "$rc"
check_eq "its children" "" "$(pgrep -P "$WATCH_PID" || true)"
finish
