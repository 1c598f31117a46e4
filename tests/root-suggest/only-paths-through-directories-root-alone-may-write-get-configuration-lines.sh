#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Root's configuration names only paths no user can change (#36): every
# block that names subvolumes (server fstab, mount units, exports-nohide,
# client fstab, autofs) names exactly those whose every directory from the
# export down to the parent is root's and writable by no one else, a
# user's own subvolume in root's directory included; a subvolume below a
# group-writable, a world-writable (sticky) directory, or one whose ACL
# lets a named user write (mode 0755 all the same), or a directory a user
# owns, is named in no line, and the block says so: "# left to btrfs-ino
# mount, named in no line: PATH: DIR is group-writable, ...".  --json says
# the same in each subvolume's left_to_mount.  A path audited below the
# export is judged from the export: root's directory alice/kept in the
# user's alice/ is no safer for being the path suggest was given.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_config_paths

for format in server-fstab mount-units exports-nohide client-fstab autofs; do
	suggest "$format" --exports "$EXPORTS" --server srv --format "$format" "$EXP"
	check_suggest_rc "$format" 0
	check_eq "$format: the paths named are those through root's directories" \
		"$SAFE_SUBVOLS" "$(named_paths "$format" "$OUT/$format")"
	check_eq "$format: each subvolume left out is said, with the directory and why" \
		"$(expected_left_notes)" "$(left_notes "$OUT/$format")"
done

suggest json --exports "$EXPORTS" --server srv --json "$EXP"
check_suggest_rc json 0
check_eq "json: left_to_mount of each subvolume left out" \
	"$(expected_left_notes | sed 's/|/ /')" \
	"$(jq -r '.exports[0].subvolumes[] | select(.left_to_mount) |
		"\(.path) \(.left_to_mount.directory) \(.left_to_mount.message |
		sub("^[^ ]* "; ""))"' "$OUT/json" | sort)"
check_eq "json: the reasons" "acl_writable owner owner other_writable owner group_writable" \
	"$(jq -r '[.exports[0].subvolumes[] | select(.left_to_mount)] | sort_by(.path) |
		map(.left_to_mount.reason) | join(" ")' "$OUT/json")"
check_eq "json: the others have left_to_mount null" "$SAFE_SUBVOLS" \
	"$(jq -r '.exports[0].subvolumes[] | select(.left_to_mount == null) | .path' "$OUT/json" | sort)"

suggest below --exports "$EXPORTS" --json "$EXP/alice/kept"
check_suggest_rc below 0
check_eq "json, below the export: the directory at fault is above the path" \
	"$EXP/alice/kept/sub $EXP/alice owner" \
	"$(jq -r '.exports[0].subvolumes[] | "\(.path) \(.left_to_mount.directory) \(.left_to_mount.reason)"' \
		"$OUT/below")"
finish
