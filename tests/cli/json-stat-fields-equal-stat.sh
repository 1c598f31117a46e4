#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `walk --json --stat` fields equal what stat(1) reports for each entry.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/tree
mkdir -p "$dir/sub"
printf 'hello' >"$dir/file"
ln "$dir/file" "$dir/sub/hardlink"
ln -s file "$dir/symlink"
mkfifo "$dir/fifo"
chmod 4751 "$dir/sub/hardlink"
chown 1234:5678 "$dir/file" 2>/dev/null || true
touch -d '2001-02-03 04:05:06.123456789' "$dir/file"

run walk --json --stat "$dir"
check_eq "exit status" 0 "$RC"
fields='dev ino nlink mode uid gid size mtime mtime_nsec ctime ctime_nsec'
jq -r '[.path, .dev, .ino, .nlink, .mode, .uid, .gid, .size,
        .mtime, .mtime_nsec, .ctime, .ctime_nsec] | @tsv' "$OUT" |
	LC_ALL=C sort >"$TMP/got"
find "$dir" | while IFS= read -r path; do
	stat -c '%n	%Hd:%Ld	%i	%h	%f	%u	%g	%s	%.9Y	%.9Z' -- "$path"
done | while IFS=$'\t' read -r path dev ino nlink mode uid gid size mtime ctime; do
	printf '%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d\t%s\t%d\n' \
		"$path" "$dev" "$ino" "$nlink" "$((16#$mode))" "$uid" "$gid" \
		"$size" "${mtime%.*}" "$((10#${mtime#*.}))" \
		"${ctime%.*}" "$((10#${ctime#*.}))"
done | LC_ALL=C sort >"$TMP/want"
check_files_eq "path, $fields" "$TMP/want" "$TMP/got"
