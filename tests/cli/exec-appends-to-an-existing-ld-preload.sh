#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `btrfs-ino exec` keeps an existing LD_PRELOAD first and appends its library after it, once.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO_EXEC_PRELOAD:?BTRFS_INO_EXEC_PRELOAD must name the built preload library}"
# A sanitizer build of btrfs-ino would refuse to start with anything preloaded.
export ASAN_OPTIONS=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}

# Any library the loader can preload harmlessly: libc itself, as this shell has it.
libc=$(awk '$6 ~ /\/libc\.so\.6$/ { print $6; exit }' /proc/self/maps)
[[ -n $libc ]] || fail "no libc.so.6 in /proc/self/maps"
LD_PRELOAD=$libc run exec -- printenv LD_PRELOAD
check_eq "exit status" 0 "$RC"
check_eq "LD_PRELOAD" "$libc:$BTRFS_INO_EXEC_PRELOAD" "$(cat "$OUT")"
# Nested: already there, not added again.
run exec -- "$BTRFS_INO" exec -- printenv LD_PRELOAD
check_eq "LD_PRELOAD nested" "$BTRFS_INO_EXEC_PRELOAD" "$(cat "$OUT")"
