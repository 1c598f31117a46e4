#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The names of one inode (hard links, in different directories) get one
# identity, and the walk groups names exactly as find -samefile does.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

walk json --json "$MNT"
check_walk_rc json 0

# For every multi-link file: its group by find -samefile, and by the walk.
find "$MNT" -type f -links +1 | sort >"$OUT/linked"
check_eq "multi-link files in the fixture (data/original x3 in 4 subvolumes, data/two x2 in 2)" 16 \
	"$(wc -l <"$OUT/linked")"
jq -r 'select(.event == "entry") | [.path, "\(.dev):\(.subvolid):\(.ino)"] | @tsv' \
	"$OUT/json" | sort >"$OUT/keys"
: >"$OUT/expected"
: >"$OUT/actual"
while IFS= read -r f; do
	find "$MNT" -samefile "$f" | sort | paste -s -d '|' >>"$OUT/expected"
	key=$(awk -F '\t' -v p="$f" '$1 == p { print $2 }' "$OUT/keys")
	if [[ -z $key ]]; then
		echo "(not walked: $f)" >>"$OUT/actual"
		continue
	fi
	awk -F '\t' -v k="$key" '$2 == k { print $1 }' "$OUT/keys" | sort |
		paste -s -d '|' >>"$OUT/actual"
done <"$OUT/linked"
check_files_eq "groups of names of one inode" "$OUT/expected" "$OUT/actual"

s=$MNT/fex/spool
check_eq "the group of spool's data/original" \
	"$s/data/original|$s/dir/sub/hard2|$s/links/hard1" \
	"$(grep -m 1 -F -x -- "$s/data/original|$s/dir/sub/hard2|$s/links/hard1" "$OUT/actual" || true)"

finish
