#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Colour as util-linux decides it: none to a pipe; --color=always colours
# even there; on a terminal (a pty from script(1)) colour by default, none
# with NO_COLOR set, none with --color=never, none with a terminal-colors.d
# "btrfs-ino.disable" file, and --color=always beats NO_COLOR.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || skip_or_fail "needs script(1) (bsdutils)"
mkdir -p "$TMP/d"
esc=$(printf '\033[')

coloured() { grep -qF -- "$esc" "$1"; }
on_tty() {
	# script(1) runs the command on a pty; its stdout is the transcript.
	env "$@" script -qec "'$BTRFS_INO' audit -q --exports /dev/null '$TMP/d'" /dev/null \
		>"$TMP/tty" 2>&1 || true
}

run audit -q --exports /dev/null "$TMP/d"
coloured "$OUT" && fail "a pipe got colour"
run audit -q --color=always --exports /dev/null "$TMP/d"
coloured "$OUT" || fail "--color=always gave no colour"
NO_COLOR=1 "$BTRFS_INO" audit -q --color=always --exports /dev/null "$TMP/d" >"$TMP/nc" || true
coloured "$TMP/nc" || fail "--color=always lost to NO_COLOR"

on_tty TERM=xterm HOME="$TMP" XDG_CONFIG_HOME="$TMP/cfg"
coloured "$TMP/tty" || fail "a terminal got no colour: $(cat "$TMP/tty")"
on_tty TERM=xterm NO_COLOR=1 HOME="$TMP" XDG_CONFIG_HOME="$TMP/cfg"
coloured "$TMP/tty" && fail "NO_COLOR=1 on a terminal gave colour"
on_tty TERM=dumb HOME="$TMP" XDG_CONFIG_HOME="$TMP/cfg"
coloured "$TMP/tty" && fail "TERM=dumb gave colour"
mkdir -p "$TMP/cfg/terminal-colors.d"
touch "$TMP/cfg/terminal-colors.d/btrfs-ino.disable"
on_tty TERM=xterm HOME="$TMP" XDG_CONFIG_HOME="$TMP/cfg"
coloured "$TMP/tty" && fail "terminal-colors.d/btrfs-ino.disable did not disable colour"
true
