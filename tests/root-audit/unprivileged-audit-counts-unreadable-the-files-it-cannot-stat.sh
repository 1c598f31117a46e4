#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A directory its user may read but not search lists names whose files
# cannot be stat'ed: the audit counts those unreadable, whoever owns the
# directory.  Here, as nobody: one such directory of root's (mode 0744),
# one of nobody's own without its owner x bit (0644), each of 3 files,
# beside a searchable one of nobody's (0700) whose 3 files are counted.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

top=$WORK/btrfs
mount_loop btrfs 256M "$top"
btrfs -q subvolume create -- "$top/src"
mkdir -- "$top/src/roots" "$top/src/owned" "$top/src/open"
touch -- "$top"/src/{roots,owned,open}/{a,b,c}
as_nobody
chown -R -- nobody "$top/src/owned" "$top/src/open"
chmod 0744 -- "$top/src/roots"
chmod 0644 -- "$top/src/owned"
chmod 0700 -- "$top/src/open"
write_exports "$OUT/exports" "$top/src *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"

audit json --json --exports "$OUT/exports" "$top/src"
# What cannot be read is reported: exit 1, as per-entry errors are.
check_audit_rc json 1
# src, its 3 directories and the 3 files of open.
check_eq "entries, unreadable" "7 6" \
	"$(jq -r '.exports[0] | "\(.entries) \(.unreadable)"' "$OUT/json")"
finish
