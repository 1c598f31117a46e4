#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino mount --dry-run plans from the btrfs subvolume tree and the
# mount table, never from the files below the export: under strace it makes
# no getdents64 at all, and every file it opens below the export (by an
# absolute name, or by a name relative to a directory it opened) is the
# root of a subvolume btrfs subvolume list shows there, or the export
# itself ("." of it).  Its plan is still every such subvolume (btrfs
# subvolume list, blkid) and no placeholder, on the classic fixture: a few
# hundred files (200 in spool, and in each snapshot) that a walk would list.
source "$(dirname -- "$0")/mount-lib.sh"
setup_mount_export
command -v strace >/dev/null || skip_or_fail "needs strace"
files=$(find "$FEX" -type f | wc -l)
((files >= 300)) || fail "only $files files below the export"

# shellcheck disable=SC2034 # run_cli (mount_cmd) runs under it
RUN_WRAPPER=(strace -f -e "trace=getdents64,open,openat,openat2" -o "$OUT/trace" --)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	mount_cmd dry --dry-run --exports "$EXPORTS"
# shellcheck disable=SC2034
RUN_WRAPPER=()
check_mount_rc dry 0
expected_mount_lines | sort >"$OUT/expected"
check_files_eq "the plan: every subvolume below the export" "$OUT/expected" <(action_lines "$OUT/dry" | sort)

check_eq "getdents64 calls" 0 "$(grep -c 'getdents64(' "$OUT/trace" || true)"
# The names opened: absolute ones below the export, and relative ones
# (from the export's descriptor: openat2 RESOLVE_BENEATH; "." of one opened
# before), made absolute.
{
	echo "$FEX"
	expected_subvols | cut -f2
} | sort -u >"$OUT/allowed"
sed -n -E 's/^[0-9]+ +open(at2?)?\((AT_FDCWD, |[0-9]+, )?"([^"]*)".*/\3/p' "$OUT/trace" |
	while IFS= read -r name; do
		case $name in
		/*) ;;
		.) name=$FEX ;;
		*) name=$FEX/$name ;;
		esac
		if [[ $name == "$FEX" || $name == "$FEX"/* ]]; then
			printf '%s\n' "$name"
		fi
	done | sort -u >"$OUT/opened"
check_eq "names below the export opened that are not subvolume roots" "" \
	"$(comm -23 "$OUT/opened" "$OUT/allowed")"
finish
