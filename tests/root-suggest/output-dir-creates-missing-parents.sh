#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# suggest --output-dir DIR, where DIR and two of its parents are missing,
# makes them (mkdir -p), each a directory of root's, mode 0755 even under
# umask 077, and writes one unit per subvolume below the export that is
# not a snapshot there (names from systemd-escape of btrfs subvolume list's paths), each a
# regular file of mode 0644.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
expected_plain_subvols | while IFS=$'\t' read -r _ path; do
	systemd-escape --path --suffix=mount -- "$path"
done | sort >"$OUT/names"

dir=$OUT/a/b/units
umask 077
suggest made --exports "$EXPORTS" --output-dir "$dir" "$FEX"
umask 022
check_suggest_rc made 0
for made in "$OUT/a" "$OUT/a/b" "$dir"; do
	[[ -d $made && ! -L $made ]] || fail "$made is not a directory"
	check_eq "$made: owner and mode" "0 755" "$(stat -c '%u %a' -- "$made")"
done
(cd "$dir" && ls -A | sort) >"$OUT/names.written"
check_files_eq "the unit names in $dir" "$OUT/names" "$OUT/names.written"
check_eq "units that are not regular files of mode 0644" "" \
	"$(find "$dir" -mindepth 1 \( ! -type f -o ! -perm 0644 \) -printf '%M %p\n')"
finish
