#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# With -L every symbolic link is followed, as find -L does: a link to a file
# is listed with the type and inode of its target, a dangling one as a link.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

links=$MNT/fex/spool/links
ln -s ../dir "$links/to-dir"
map='BEGIN { t["f"] = "file"; t["d"] = "dir"; t["l"] = "symlink"; t["p"] = "fifo" }'
find -L "$links" -printf '%p\t%y\t%i\n' | awk -F '\t' "$map"'{ print $1 "\t" t[$2] "\t" $3 }' |
	sort >"$OUT/expected"
# abs points into /data, as on the reporter's server: dangling here unless
# this host has such a path.
abs_type='symlink'
[[ ! -e $(readlink -- "$links/abs") ]] || abs_type='file'
check_eq "rel and to-dir followed, dangling not, abs only if /data has it" \
	"$abs_type symlink dir file" \
	"$(for l in abs dangling to-dir rel; do grep -F -- "$links/$l"$'\t' "$OUT/expected" | cut -f2; done |
		tr '\n' ' ' | sed 's/ $//')"

walk L --json -L "$links"
check_walk_rc L 0
jq -r 'select(.event == "entry") | [.path, .type, (.ino | tostring)] | @tsv' "$OUT/L" |
	sort >"$OUT/actual"
check_files_eq "-L: path, type, ino" "$OUT/expected" "$OUT/actual"

# Without -L (-P, the default) nothing is followed.
find "$links" -printf '%p\t%y\t%i\n' | awk -F '\t' "$map"'{ print $1 "\t" t[$2] "\t" $3 }' |
	sort >"$OUT/expected.P"
walk P --json -P "$links"
check_walk_rc P 0
jq -r 'select(.event == "entry") | [.path, .type, (.ino | tostring)] | @tsv' "$OUT/P" |
	sort >"$OUT/actual.P"
check_files_eq "-P: path, type, ino" "$OUT/expected.P" "$OUT/actual.P"

finish
