#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Entries at the filesystem root have subvolid 5 (the top level), and a
# read-only snapshot is walked like any other subvolume, also as a start path.
# shellcheck source=tests/root/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_fixture

check_eq "rootid of the top level" 5 "$(btrfs inspect-internal rootid "$MNT")"
check_eq "s3 is read-only" "ro=true" "$(btrfs property get -ts "$MNT/fex/spool/.snapshot/s3" ro)"
check_eq "s2 is writable" "ro=false" "$(btrfs property get -ts "$MNT/fex/spool/.snapshot/s2" ro)"

walk top --json "$MNT"
check_walk_rc top 0
# The top level's own entries: the mount point, README, "top dir" and its
# file, and fex (whose root is in subvolume ID_FEX, not 5).
check_eq "entries in subvolume 5" \
	"$(printf '%s\n' "$MNT" "$MNT/README" "$MNT/top dir" "$MNT/top dir/note.txt" | sort)" \
	"$(jq -r 'select(.event == "entry" and .subvolid == 5) | .path' "$OUT/top" | sort)"
check_eq "the top level's root: subvol_root, mount_root, inode 256" "true true 256" \
	"$(jq -r --arg p "$MNT" 'select(.path == $p) | "\(.subvol_root) \(.mount_root) \(.ino)"' "$OUT/top")"

s3=$MNT/fex/spool/.snapshot/s3
walk s3 --json "$s3"
check_walk_rc s3 0
find "$s3" | sort >"$OUT/s3.expected"
jq -r 'select(.event == "entry") | .path' "$OUT/s3" | sort >"$OUT/s3.paths"
check_files_eq "paths in the read-only snapshot" "$OUT/s3.expected" "$OUT/s3.paths"
# All in s3 but its placeholders, which are in s3 too (held by it).
check_eq "subvolids in s3" "$ID_S3" \
	"$(jq -r 'select(.event == "entry") | .subvolid' "$OUT/s3" | sort -u | tr '\n' ' ' | sed 's/ $//')"
check_eq "s3 as the start path: subvol_root, depth" "true 0" \
	"$(jq -r --arg p "$s3" 'select(.path == $p) | "\(.subvol_root) \(.depth)"' "$OUT/s3")"
check_eq "s3 as the start path: dev of the mount" "$DEV" \
	"$(jq -r --arg p "$s3" 'select(.path == $p) | .dev' "$OUT/s3")"

finish
