#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# (dev, subvolid, ino) names one inode each, though bare inode numbers repeat
# across subvolumes: the walk's keys partition the entries exactly as stat's
# local (st_dev, st_ino) keys do.
#
# Locally every subvolume has its own anonymous st_dev, so (st_dev, st_ino) is
# a correct key to compare against, except for the placeholders in snapshots:
# stat shows them all as inode 2 on the filesystem's own device, while each
# belongs to the subvolume that holds it (as its file handle says), so their
# expected key is (parent's st_dev, 2).
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

sbdev=$(devnum "$DEV")
find "$MNT" -printf '%p\t%D\t%i\t%y\t%h\n' |
	awk -F '\t' -v sbdev="$sbdev" '{
		d = $2
		if ($4 == "d") dev[$1] = $2
		if ($4 == "d" && $3 == 2 && $2 == sbdev) d = "placeholder-in-" dev[$5]
		print $1 "\t" d ":" $3
	}' | sort >"$OUT/expected"

walk json --json "$MNT"
check_walk_rc json 0
jq -r 'select(.event == "entry") | [.path, "\(.dev):\(.subvolid):\(.ino)"] | @tsv' \
	"$OUT/json" | sort >"$OUT/actual"
check_files_eq "walked paths" <(cut -f1 "$OUT/expected") <(cut -f1 "$OUT/actual")

# Same partition: as many walk keys as stat keys, and as many as pairs.
join -t $'\t' "$OUT/expected" "$OUT/actual" | cut -f2,3 | sort -u >"$OUT/pairs"
n_expected=$(cut -f2 "$OUT/expected" | sort -u | wc -l)
n_actual=$(cut -f2 "$OUT/actual" | sort -u | wc -l)
n_pairs=$(wc -l <"$OUT/pairs")
check_eq "distinct walk identities vs distinct stat identities" "$n_expected" "$n_actual"
check_eq "distinct (stat, walk) identity pairs vs distinct stat identities" "$n_expected" "$n_pairs"
if ! [[ $n_pairs == "$n_expected" && $n_pairs == "$n_actual" ]]; then
	echo "  stat keys mapped to more than one walk key, or the reverse:" >&2
	{ cut -f1 "$OUT/pairs" | sort | uniq -d | sed 's/^/  stat /'
	  cut -f2 "$OUT/pairs" | sort | uniq -d | sed 's/^/  walk /'; } | head -20 >&2
fi

# Bare inode numbers repeat: 256 is the root of all 7 subvolumes, and the
# snapshots share their files' inode numbers with spool.
check_eq "subvolumes in which inode 256 is walked" 7 \
	"$(jq -r 'select(.event == "entry" and .ino == 256) | .subvolid' "$OUT/json" | sort -u | wc -l)"
ino=$(stat -c %i "$MNT/fex/spool/data/original")
check_eq "subvolumes holding inode $ino (data/original: spool, s1, s2, s3)" \
	"$(printf '%s\n' "$ID_SPOOL" "$ID_S1" "$ID_S2" "$ID_S3" | sort -n | tr '\n' ' ')" \
	"$(jq -r --argjson ino "$ino" 'select(.event == "entry" and .ino == $ino and .type == "file") | .subvolid' \
		"$OUT/json" | sort -nu | tr '\n' ' ')"

finish
