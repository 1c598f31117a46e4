#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Text lines are "DEV SUBVOLID INO PATH" with \n, \t, \\ and invalid UTF-8 escaped.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/names
mkdir "$dir"
fstype=$(stat -f -c %T "$dir")
[ "$fstype" != btrfs ] || skip_or_fail "$TMP is on btrfs"

# raw name | how the text output must write it
names=(
	$'new\nline'	'new\nline'
	$'tab\there'	'tab\there'
	'back\slash'	'back\\slash'
	$'bad\xff\xfeutf8'	'bad\xff\xfeutf8'
	$'caf\xc3\xa9'	$'caf\xc3\xa9'
)
line() { # PATH ESCAPED
	printf '%s 0 %s %s\n' "$(stat -c '%Hd:%Ld' -- "$1")" "$(stat -c %i -- "$1")" "$2"
}
{
	line "$dir" "$dir"
	for ((i = 0; i < ${#names[@]}; i += 2)); do
		touch -- "$dir/${names[i]}"
		line "$dir/${names[i]}" "$dir/${names[i + 1]}"
	done
} | LC_ALL=C sort >"$TMP/want"

run walk "$dir"
check_eq "exit status" 0 "$RC"
LC_ALL=C sort "$OUT" >"$TMP/got"
check_files_eq "escaped text output" "$TMP/want" "$TMP/got"
