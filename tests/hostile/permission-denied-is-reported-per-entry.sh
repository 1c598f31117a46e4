#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The CLI run as an unprivileged user (nobody, via setpriv) on a tree with
# 0700 directories owned by root: each unreadable directory is listed, then
# reported as an error record naming it (EACCES), the walk exits 1, and
# everything else is walked: the entries listed are exactly those find,
# run as the same user, lists.  In a directory that is readable but not
# searchable, names are listed (readdir gives the identity) and, with --stat,
# each child is an EACCES error.  A 0700 starting path is itself listed
# (stat needs only search permission on its parent) and its error reported,
# exit 1.  On btrfs and on tmpfs.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs tmpfs

as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all --)
# nobody must be able to reach the scratch mounts.
chmod 0755 -- "$WORK" "$WORK/mnt"

for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	top=$fs/perm
	mkdir -p -- "$top"/{open/a,open/secret/inner,closed/x,also-closed,mixed/nosearch,mixed/noread}
	touch -- "$top"/open/a/f1 "$top"/open/secret/inner/f2 "$top"/closed/x/f3 \
		"$top"/also-closed/f4 "$top"/mixed/nosearch/f5 "$top"/mixed/noread/f6 "$top"/mixed/f7
	chmod 0755 -- "$top" "$top"/open "$top"/open/a "$top"/mixed
	chmod 0700 -- "$top"/open/secret "$top"/closed "$top"/also-closed
	# Readable but not searchable, and searchable but not readable.
	chmod 0744 -- "$top"/mixed/nosearch
	chmod 0711 -- "$top"/mixed/noread
	chmod -R a+r -- "$top"/open/a

	CLI_PREFIX=("${as_nobody[@]}")
	run_cli "$label" 60 walk --json "$top"
	CLI_PREFIX=()
	check_rc "$label" 1
	check_json "$label"
	"${as_nobody[@]}" find "$top" -print0 2>"$OUT/$label.find.err" | LC_ALL=C sort -z >"$OUT/$label.find" || true
	json_paths "$OUT/$label" | LC_ALL=C sort -z >"$OUT/$label.paths"
	check_files_eq "$label: entries listed are those find lists as nobody" "$OUT/$label.find" "$OUT/$label.paths"
	# The directories nobody cannot read, each reported once, with EACCES.
	printf '%s\n' "$top/open/secret" "$top/closed" "$top/also-closed" "$top/mixed/noread" |
		LC_ALL=C sort >"$OUT/$label.denied.expected"
	jq -r 'select(.event == "error") | "\(.path)\t\(.errno)"' "$OUT/$label" | LC_ALL=C sort >"$OUT/$label.errors"
	sed 's/$/\t13/' "$OUT/$label.denied.expected" >"$OUT/$label.errors.expected"
	check_files_eq "$label: error records (path, errno)" "$OUT/$label.errors.expected" "$OUT/$label.errors"
	# stderr names each of them too.
	while IFS=$'\t' read -r path _; do
		# "btrfs-ino: PATH: Could not open: Permission denied", one wording
		# in every command.
		grep -qF -- "$path: Could not open: Permission denied" "$OUT/$label.err" ||
			fail "$label: stderr does not report $path"
	done <"$OUT/$label.errors.expected"

	# With --stat, the child of the unsearchable directory cannot be
	# stat'ed: one more error, for it.
	CLI_PREFIX=("${as_nobody[@]}")
	run_cli "$label-stat" 60 walk --json --stat "$top"
	CLI_PREFIX=()
	check_rc "$label-stat" 1
	printf '%s\t13\n' "$top/mixed/nosearch/f5" >>"$OUT/$label.errors.expected"
	LC_ALL=C sort -o "$OUT/$label.errors.expected" "$OUT/$label.errors.expected"
	jq -r 'select(.event == "error") | "\(.path)\t\(.errno)"' "$OUT/$label-stat" | LC_ALL=C sort >"$OUT/$label-stat.errors"
	check_files_eq "$label --stat: error records (path, errno)" "$OUT/$label.errors.expected" "$OUT/$label-stat.errors"

	# A 0700 directory as the starting path: listed, reported, exit 1.
	CLI_PREFIX=("${as_nobody[@]}")
	run_cli "$label-start" 60 walk --json "$top/closed"
	CLI_PREFIX=()
	check_rc "$label-start" 1
	check_eq "$label-start: records" "entry $top/closed
error $top/closed" "$(jq -r '"\(.event) \(.path)"' "$OUT/$label-start")"
	echo "$label: $(jq -c 'select(.event == "entry")' "$OUT/$label" | wc -l) entries," \
		"$(wc -l <"$OUT/$label.errors") errors as nobody"
done

finish
