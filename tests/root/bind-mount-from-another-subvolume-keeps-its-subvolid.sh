#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A directory of one subvolume (fex/docs) bind-mounted into another (spool):
# the mount point and everything below it have the subvolid btrfs
# inspect-internal rootid gives them (fex's), not that of the directory the
# mount sits in (spool's), whichever source names the subvolume: statx, the
# ioctl (--no-statx-subvol, as on kernels before 6.10) or the file handle.
# Without statx a directory inherits its parent's subvolid only on the same
# device; the bind mount is a directory of another device, not inode 256.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

bind=$MNT/fex/spool/dir/loop
mount --bind -- "$MNT/fex/docs" "$bind"
[[ $(stat -c %i -- "$bind") != 256 ]] || fail "the mount point is a subvolume root (inode 256)"

# path -> expected subvolid below the mount sitting in spool: a directory's
# rootid, any other entry's its directory's.
find "$MNT/fex/spool/dir" -type d | sort >"$OUT/dirs"
rootids_of_dirs "$OUT/dirs" >"$OUT/rootids"
check_eq "rootid of the mount point is fex's" "$ID_FEX" \
	"$(awk -F'\t' -v p="$bind" '$1 == p { print $2 }' "$OUT/rootids")"
check_eq "rootid of the directory holding it is spool's" "$ID_SPOOL" \
	"$(awk -F'\t' -v p="$MNT/fex/spool/dir" '$1 == p { print $2 }' "$OUT/rootids")"
find "$MNT/fex/spool/dir" -mindepth 1 -printf '%y\t%p\t%h\n' | sort |
	awk -F '\t' 'NR == FNR { id[$1] = $2; next }
	{ print $2 "\t" ($1 == "d" ? id[$2] : id[$3]) }' "$OUT/rootids" - |
	sort >"$OUT/expected"
grep -q -F -- "$bind/" "$OUT/expected" || fail "find sees nothing below the bind mount"

for mode in statx ioctl handle; do
	case $mode in
	statx) args=() ;;
	ioctl) args=(--no-statx-subvol) ;;
	handle) args=(--no-statx-subvol --no-subvol-ioctl) ;;
	esac
	walk "$mode" --json "${args[@]}" "$MNT/fex/spool/dir"
	check_walk_rc "$mode" 0
	walk_tsv "$OUT/$mode" | awk -F'\t' -v top="$MNT/fex/spool/dir" '$1 != top' |
		cut -f1,3 | sort >"$OUT/$mode.actual"
	check_files_eq "path and subvolid (${args[*]:-default})" "$OUT/expected" "$OUT/$mode.actual"
done

finish
