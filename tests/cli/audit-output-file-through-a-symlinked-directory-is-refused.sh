#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A symbolic link on the way to audit --output-file's directory is not
# followed: exit status 2, one line naming the link, nothing written where
# it points.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mkdir "$TMP/audited" "$TMP/real"
ln -s real "$TMP/link"

run audit -q --exports /dev/null --output-file "$TMP/link/audit.txt" "$TMP/audited"
check_eq "exit status" 2 "$RC"
check_eq "what it says" \
	"btrfs-ino: $TMP/link: not followed: a symbolic link (name the directory it leads to)" \
	"$(cat "$ERR")"
check_eq "files where the link points" "" "$(ls -A "$TMP/real")"
