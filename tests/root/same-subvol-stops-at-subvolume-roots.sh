#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --same-subvol lists the roots of nested subvolumes and snapshots but does
# not enter them; the placeholders snapshots hold are part of the snapshot.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

# A subvolume's root directory is inode 256 (and nothing else is).
spool=$MNT/fex/spool
find "$spool" -type d -inum 256 ! -path "$spool" -print -prune -o -print | sort >"$OUT/expected"
check_eq "subvolume roots below spool (inner, s1, s2, s3)" \
	"$(printf '%s\n' "$spool/.snapshot/s1" "$spool/.snapshot/s2" "$spool/.snapshot/s3" "$spool/inner" | sort)" \
	"$(find "$spool" -mindepth 1 -type d -inum 256 | sort)"

walk spool --json --same-subvol "$spool"
check_walk_rc spool 0
jq -r 'select(.event == "entry") | .path' "$OUT/spool" | sort >"$OUT/actual"
check_files_eq "paths with --same-subvol from spool" "$OUT/expected" "$OUT/actual"
check_eq "subvolids walked" \
	"$(printf '%s\n' "$ID_SPOOL" "$ID_INNER" "$ID_S1" "$ID_S2" "$ID_S3" | sort -n | tr '\n' ' ')" \
	"$(jq -r 'select(.event == "entry") | .subvolid' "$OUT/spool" | sort -nu | tr '\n' ' ')"

# From a snapshot: its placeholders (inode 2) are listed, in it.
s3=$spool/.snapshot/s3
find "$s3" | sort >"$OUT/s3.expected"
walk s3 --json --same-subvol "$s3"
check_walk_rc s3 0
jq -r 'select(.event == "entry") | .path' "$OUT/s3" | sort >"$OUT/s3.actual"
check_files_eq "paths with --same-subvol from s3" "$OUT/s3.expected" "$OUT/s3.actual"

finish
