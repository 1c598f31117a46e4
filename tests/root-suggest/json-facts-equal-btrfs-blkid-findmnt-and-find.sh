#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The facts suggest --json gives for fex are those of btrfs-progs, blkid,
# findmnt and find: subvolumes (id, path, fs_path, snapshot_of) as btrfs
# subvolume list/show give them, none mounted; fs_uuid as blkid; the
# filesystem as findmnt names the mount holding fex; mount_options its
# options without subvol=/subvolid=; placeholders the empty inode-2
# directories find finds below fex.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

suggest json --exports "$EXPORTS" --json "$FEX"
check_suggest_rc json 0

expected_subvols | while IFS=$'\t' read -r id path; do
	puuid=$(btrfs subvolume show -- "$path" | awk '/^[[:space:]]*Parent UUID:/ { print $NF }')
	of=null
	if [[ $puuid != - ]]; then
		of=$(btrfs subvolume list -u "$MNT" | awk -v u="$puuid" '{ for (i = 1; i < NF; i++) if ($i == "uuid" && $(i + 1) == u) print $2 }')
	fi
	printf '%s %s %s false %s\n' "$id" "$path" "${path#"$MNT"}" "$of"
done | sort >"$OUT/expected-subvols"
jq -r '.exports[0].subvolumes[] | "\(.id) \(.path) \(.fs_path) \(.mounted) \(.snapshot_of)"' \
	"$OUT/json" | sort >"$OUT/actual-subvols"
check_files_eq "subvolumes (id path fs_path mounted snapshot_of)" \
	"$OUT/expected-subvols" "$OUT/actual-subvols"

# blkid -p: the device itself, not the cache (a loop device is reused).
check_eq "fs_uuid" "$(blkid -p -s UUID -o value "$LOOP")" "$(jq -r '.exports[0].fs_uuid' "$OUT/json")"
check_eq "filesystem mountpoint" "$MNT" "$(jq -r '.exports[0].filesystem.mountpoint' "$OUT/json")"
check_eq "filesystem dev" "$DEV" "$(jq -r '.exports[0].filesystem.dev' "$OUT/json")"
options=$(findmnt -n -o OPTIONS --mountpoint "$MNT" | tr ',' '\n' |
	grep -v -e '^subvol=' -e '^subvolid=' | paste -sd,)
check_eq "mount_options" "$options" "$(jq -r '.exports[0].mount_options' "$OUT/json")"

find "$FEX" -type d -inum 2 | sort >"$OUT/expected-placeholders"
jq -r '.exports[0].placeholders[]' "$OUT/json" | sort >"$OUT/actual-placeholders"
[[ -s $OUT/expected-placeholders ]] || fail "find finds no placeholder: the fixture proves nothing"
check_files_eq "placeholders" "$OUT/expected-placeholders" "$OUT/actual-placeholders"
finish
