#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The audit stats a file only for nlink, where its key collides, and once
# per directory as a probe that its children can be stat'ed at all (a
# directory may be readable but not searchable: then they are counted
# unreadable).  Root (CAP_DAC_READ_SEARCH) searches every btrfs directory,
# so on a subvolume whose keys do not collide it stats no file: the walk's
# own stat of each directory is all.
# shellcheck source=tests/root-audit/audit-lib.sh
source "$(dirname -- "$0")/audit-lib.sh"
setup_scratch

FILES=200
top=$WORK/btrfs
btrfs_of_small_dirs "$top" # 21 directories: 21 probes before
audit_stats_no_file "$top/src"
# The control of its count of fNNN stats: as nobody, who owns none of
# them, the same audit probes src's 21 directories with a stat of an fNNN
# each, and the same grep counts them.
control_probes "$top/src"
finish
