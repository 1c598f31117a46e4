#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Each loop of the tree is counted at the right node: computed from find
# alone, a loop is a directory whose inode number equals its nearest
# ancestor's with that number (one client filesystem: no crossmnt, no
# mounts), between the subvolume of that ancestor and its own (the longest
# subvolume root of btrfs subvolume list above it), and is counted at the
# higher of the two IDs.  The tree's per-subvolume loop counts are exactly
# those.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
{
	printf '%s\t%s\n' "$ID_FEX" "$fex"
	btrfs subvolume list "$MNT" | awk -v mnt="$MNT" '
		{ path = $0; sub(/^.* path /, "", path) }
		path ~ /^fex\// { printf "%s\t%s/%s\n", $2, mnt, path }'
} >"$OUT/subvols"
find "$fex" -type d -printf '%i\t%p\n' >"$OUT/dirs"
awk -F'\t' -v export="$fex" '
	FILENAME == ARGV[1] { root[$2] = $1; next }
	function subvol(p,    best, id, r) {
		best = -1
		for (r in root)
			if ((p == r || index(p, r "/") == 1) && length(r) > best) {
				best = length(r)
				id = root[r]
			}
		return id
	}
	{
		ino[$2] = $1
		for (a = $2; sub(/\/[^\/]*$/, "", a) && index(a, export) == 1; ) {
			if (a in ino && ino[a] == $1) {
				x = subvol(a); y = subvol($2)
				loops[x + 0 > y + 0 ? x : y]++
				break
			}
		}
	}
	END { for (id in loops) print id, loops[id] }' "$OUT/subvols" "$OUT/dirs" |
	sort >"$OUT/expected"
[[ -s $OUT/expected ]] || fail "find shows no loop: the fixture proves nothing"

audit_tree text --exports "$OUT/exports" "$fex"
check_audit_rc text 1
tree_counts "$OUT/text" | awk '$1 > 0 && $3 > 0 { print $2, $3 }' | sort >"$OUT/actual"
check_files_eq "loops per subvolume (id count)" "$OUT/expected" "$OUT/actual"
finish
