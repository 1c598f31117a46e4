#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The names an unprivileged audit meets are a file's nlink only if it meets
# them all.  Here the snapshot's first directory, private/, is one nobody
# may not read, and it holds the second name of f003: once the walk has
# met it, the audit takes no file of that snapshot for one name without a
# stat.  (In src too private/ is unreadable: no name met there says that
# f003 has two.)  The counts are those of find run as nobody, f003 in the
# hardlink class, and the snapshot's files are stat'ed.
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300
top=$WORK/btrfs
command -v strace >/dev/null || skip_or_fail "needs strace"
mount_loop btrfs 256M "$top"
btrfs -q subvolume create -- "$top/src"
mkdir -- "$top/src/private" # first in the directory's order
(cd -- "$top/src" && seq -f 'f%03g' 1 "$FILES" | xargs touch --)
ln -- "$top/src/f003" "$top/src/private/f003-link"
mkdir -- "$top/snapshots"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/s"
chmod 0700 -- "$top/src/private" "$top/snapshots/s/private"

write_exports "$OUT/exports" "$top *(rw,no_subtree_check)"
chmod go+r -- "$OUT/exports"
as_nobody
find_listing_wrapped "$top" "$OUT/listing"
check_two_links "$OUT/listing" "$top/snapshots/s/f003"
expected=$(expected_counts "$top" "$OUT/listing")
audit_files_stats "$top" "$expected"
((FILES_STATS >= FILES)) ||
	fail "$FILES_STATS statx calls of fNNN names: fewer than the snapshot's $FILES files"
finish
