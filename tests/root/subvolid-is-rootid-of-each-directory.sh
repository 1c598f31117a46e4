#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Every directory's subvolid is what btrfs inspect-internal rootid prints for
# it, and every other entry has the subvolid of its parent directory.
#
# Snapshots hold an empty placeholder directory (inode 2) where the
# snapshotted subvolume had a nested subvolume; rootid cannot tell for those
# (the ioctl fails with ENOTTY) and the kernel's file handle places them in
# the subvolume holding them, so their expectation is their parent's rootid.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

find "$MNT" -type d | sort >"$OUT/dirs"
rootids_of_dirs "$OUT/dirs" >"$OUT/rootids"

# path -> expected subvolid, for every entry.
find "$MNT" -printf '%y\t%p\t%h\n' | sort |
	awk -F '\t' -v mnt="$MNT" '
	NR == FNR { id[$1] = $2; next }
	{
		if ($1 == "d" && id[$2] != "-") want = id[$2]
		else want = id[$3]
		# The starting path has no walked parent; rootid of / is no answer.
		if ($2 == mnt) want = id[$2]
		print $2 "\t" want
	}' "$OUT/rootids" - | sort >"$OUT/expected"

check_eq "placeholders rootid cannot tell (inner in s1..s3, s1 in s2 and s3, s2 in s3)" 6 \
	"$(grep -c $'\t-$' "$OUT/rootids" || true)"
check_eq "rootid of the fixture's subvolumes" "5 $ID_FEX $ID_SPOOL $ID_INNER" \
	"$(for d in "$MNT" "$MNT/fex" "$MNT/fex/spool" "$MNT/fex/spool/inner"; do
		grep -F -- "$d"$'\t' "$OUT/rootids" | cut -f2; done | tr '\n' ' ' | sed 's/ $//')"

walk json --json "$MNT"
check_walk_rc json 0
walk_tsv "$OUT/json" | cut -f1,3 | sort >"$OUT/actual"
check_files_eq "path and subvolid" "$OUT/expected" "$OUT/actual"

finish
