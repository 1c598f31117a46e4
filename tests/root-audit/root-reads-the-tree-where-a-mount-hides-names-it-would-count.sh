#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# As root, names counted in a subvolume's directories are its files' nlink
# only when every directory was read; a mount on one hides the names below
# it.  Here src's directory holds many entries, so the audit would count
# its snapshot's names, but a tmpfs covers the snapshot's cover/, which
# holds the second name of f002: the count fails and the audit reads the
# snapshot's tree instead (not a stat per file), and its counts are find's,
# the tmpfs crossed (the export has crossmnt).
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=300 # far more than LINKS_AFTER_STATS (64, lib/audit/audit.c)
top=$WORK/btrfs
btrfs_with_files "$top" src
mkdir -- "$top/src/cover"
ln -- "$top/src/f002" "$top/src/cover/f002-link"
mkdir -- "$top/snapshots"
btrfs -q subvolume snapshot -- "$top/src" "$top/snapshots/s1"
mount -t tmpfs -o size=1M,mode=0755 tmpfs "$top/snapshots/s1/cover"
snap_id=$(btrfs inspect-internal rootid -- "$top/snapshots/s1")

write_exports "$OUT/exports" "$top *(rw,no_subtree_check,crossmnt)"
find_listing "$top" "$OUT/listing"
check_two_links "$OUT/listing" "$top/snapshots/s1/f002"
audit json --json --exports "$OUT/exports" "$top"
check_audit_rc json 1
check_eq "collisions (loop hardlink plain)" \
	"$(expected_counts "$top" "$OUT/listing" "$top/snapshots/s1/cover")" \
	"$(audit_counts json)"
audit_traced traced trace ioctl,statx --json --exports "$OUT/exports" "$top"
check_audit_rc traced 1

(($(tree_reads "$OUT/trace" "$snap_id") >= 1)) ||
	fail "the snapshot's tree was not read after its names could not all be counted"
files_stats=$(statx_of_names "$OUT/trace" 'f[0-9]{3}')
((files_stats < 100)) ||
	fail "$files_stats stats of the snapshot's $FILES files: its tree was not read"
# The control of that count: as nobody, who owns none of the directories,
# the same audit probes src and the snapshot with a stat of f001 each.
control_probes "$top"
finish
