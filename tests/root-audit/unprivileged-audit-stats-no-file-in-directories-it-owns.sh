#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Without privilege the audit probes each directory with the stat of one
# child (a directory may be readable but not searchable), except where it
# surely may search: a directory's owner searches it when its owner x bit
# is set, whatever an ACL says of others.  A user auditing a subvolume of
# its own whose keys do not collide stats no file.
# shellcheck source=tests/root-audit/audit-lib.sh
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=200
top=$WORK/btrfs
btrfs_of_small_dirs "$top" # 21 directories: 21 probes before
as_nobody
# The control of the count of fNNN stats below: while src is root's, the
# same audit as nobody probes its 21 directories with a stat of an fNNN
# each, and the same grep counts them.
control_probes "$top/src"
chown -R -- nobody "$top/src"
chmod -R u+rwX,go-rwx -- "$top/src"
chmod go+r -- "$OUT/exports"
audit_stats_no_file "$top/src"
finish
