#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# mount --watch as a service is stopped: SIGTERM ends it between passes,
# with exit status 0, leaving no process behind.  (It is waited for up to
# WATCH_DEADLINE seconds, so that a loaded machine is no failure; a keeper
# that ignored the signal would reach it.)
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export

watch_start watch --exports "$EXPORTS" "$FEX" || finish
kill -TERM "$WATCH_PID"
if ! eventually not kill -0 "$WATCH_PID" 2>/dev/null; then
	fail "still running $WATCH_DEADLINE s after SIGTERM"
	kill -KILL "$WATCH_PID"
	finish
fi
rc=0
wait "$WATCH_PID" || rc=$?
check_eq "exit status after SIGTERM" 0 "$rc"
check_eq "its children" "" "$(pgrep -P "$WATCH_PID" || true)"
finish
