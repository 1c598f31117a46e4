#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# --format client-fstab: findmnt --verify accepts it (with its mount points
# made), it mounts SERVER:PATH of the export and of every subvolume below it
# (btrfs subvolume list) once each, under --client-dir, parents first.
# --format autofs: one direct-map multi-mount entry (autofs(5)): the key is
# --client-dir, then -fstype=nfs, then "/" and one offset per subvolume, each
# with its SERVER:PATH.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
client=$WORK/client

suggest fstab --exports "$EXPORTS" --format client-fstab --server nfs1 \
	--client-dir "$client" "$FEX"
check_suggest_rc fstab 0
{
	printf 'nfs1:%s %s\n' "$FEX" "$client"
	expected_subvols | while IFS=$'\t' read -r _ path; do
		printf 'nfs1:%s %s%s\n' "$path" "$client" "${path#"$FEX"}"
	done
} | sort >"$OUT/expected"
config_lines "$OUT/fstab" | awk '{ print $1, $2 }' | sort >"$OUT/actual"
check_files_eq "client mounts" "$OUT/expected" "$OUT/actual"
check_eq "type and options" "nfs _netdev 0 0" \
	"$(config_lines "$OUT/fstab" | awk '{ print $3, $4, $5, $6 }' | sort -u)"
# Parents first: each mount point's parent mount point comes before it.
late=$(config_lines "$OUT/fstab" | awk '{ seen[NR] = $2
	for (i = 1; i < NR; i++) if (index(seen[i], $2 "/") == 1) print $2 " before " seen[i] }')
check_eq "no mount before its parent" "" "$late"
awk '{ print $2 }' "$OUT/actual" | xargs mkdir -p --
findmnt --verify --tab-file "$OUT/fstab" >"$OUT/verify" 2>&1 ||
	fail "findmnt --verify rejects it: $(cat "$OUT/verify")"

suggest autofs --exports "$EXPORTS" --format autofs --server nfs1 --client-dir "$client" "$FEX"
check_suggest_rc autofs 0
# One entry: continuation lines joined, then split into words.
config_lines "$OUT/autofs" | sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' >"$OUT/entry"
check_eq "one map entry" 1 "$(wc -l <"$OUT/entry")"
read -r -a words <"$OUT/entry"
check_eq "key" "$client" "${words[0]}"
check_eq "options" "-fstype=nfs" "${words[1]}"
{
	printf '/ nfs1:%s\n' "$FEX"
	expected_subvols | while IFS=$'\t' read -r _ path; do
		printf '%s nfs1:%s\n' "${path#"$FEX"}" "$path"
	done
} | sort >"$OUT/autofs.expected"
for ((i = 2; i < ${#words[@]}; i += 2)); do
	printf '%s %s\n' "${words[i]}" "${words[i + 1]:-}"
done | sort >"$OUT/autofs.actual"
check_files_eq "offsets and locations" "$OUT/autofs.expected" "$OUT/autofs.actual"
finish
