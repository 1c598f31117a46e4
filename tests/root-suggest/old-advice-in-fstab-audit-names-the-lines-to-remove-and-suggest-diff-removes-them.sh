#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A server that followed the old advice has a line per subvolume in its
# fstab, snapshots included, without nofail; then the snapshot job deleted
# s3.  audit --fstab says to remove the line of the deleted subvolume
# ("subvolume ID deleted") and of each snapshot left ("leave this snapshot
# to btrfs-ino mount"), and to mount the others; suggest --diff, applied
# with patch, removes those lines and gives the others nofail; run again,
# it has nothing left to change.  IDs and paths from btrfs subvolume list.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v patch >/dev/null || skip_or_fail "needs patch"
setup_export
# -p: the device itself, not blkid's cache (a loop device is reused).
uuid=$(blkid -p -s UUID -o value "$LOOP")
FSTAB=$OUT/fstab
{
	echo "# server fstab, the old advice"
	expected_subvols | while IFS=$'\t' read -r id path; do
		printf 'UUID=%s %s btrfs subvolid=%s 0 0\n' "$uuid" "$path" "$id"
	done
} >"$FSTAB"
s3=$FEX/spool/.snapshot/s3

# What each line is, from btrfs-progs: "LINE KIND ID".
number=1
expected_subvols | while IFS=$'\t' read -r id path; do
	number=$((number + 1))
	if [[ $path == "$s3" ]]; then
		kind=subvolume_deleted
	elif btrfs subvolume show -- "$path" | grep -q '^[[:space:]]*Parent UUID:[[:space:]]*-$'; then
		kind=not_mounted
	else
		kind=snapshot
	fi
	printf '%s %s %s\n' "$number" "$kind" "$id"
done >"$OUT/kinds.expected"
btrfs -q subvolume delete -- "$s3" >/dev/null
check_eq "the fixture's lines by kind" "2 not_mounted|2 snapshot|1 subvolume_deleted" \
	"$(cut -d ' ' -f2 "$OUT/kinds.expected" | sort | uniq -c | awk '{ print $1, $2 }' | paste -sd '|')"

run_cli audit audit-json --json --exports "$EXPORTS" --fstab "$FSTAB" "$FEX"
check_rc audit-json "$RUN_RC" 1
jq -r '.fstab_drift[] | "\(.line) \(.kind) \(.subvolid)"' "$OUT/audit-json" >"$OUT/kinds"
check_files_eq "audit --json: each line's kind" "$OUT/kinds.expected" "$OUT/kinds"

run_cli audit audit-text --exports "$EXPORTS" --fstab "$FSTAB" "$FEX"
check_rc audit-text "$RUN_RC" 1
while read -r number kind id; do
	path=$(sed -n "${number}p" "$FSTAB" | cut -d ' ' -f2)
	case $kind in
	subvolume_deleted)
		expected="fstab drift: remove $FSTAB line $number: subvolume $id deleted (UUID=$uuid on $path); suggest --diff removes it" ;;
	snapshot)
		expected="fstab drift: remove $FSTAB line $number: leave this snapshot to btrfs-ino mount (UUID=$uuid on $path); suggest --diff removes it" ;;
	*)
		expected="fstab drift: $FSTAB:$number: UUID=$uuid on $path is below an export but not mounted; run mount -a" ;;
	esac
	grep -qxF -- "$expected" "$OUT/audit-text" || fail "audit text lacks: $expected"
done <"$OUT/kinds.expected"

# The fstab as it should be: the stale lines gone, the others with nofail.
options=$(findmnt -n -o OPTIONS --mountpoint "$MNT" | tr ',' '\n' |
	grep -v -e '^subvol=' -e '^subvolid=' | paste -sd,)
{
	echo "# server fstab, the old advice"
	while read -r number kind id; do
		[[ $kind == not_mounted ]] || continue
		printf 'UUID=%s %s btrfs %s,subvolid=%s,nofail 0 0\n' "$uuid" \
			"$(sed -n "${number}p" "$FSTAB" | cut -d ' ' -f2)" "$options" "$id"
	done <"$OUT/kinds.expected"
} >"$OUT/fstab.expected"
suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff --format server-fstab "$FEX"
check_suggest_rc diff 1
patch -s "$FSTAB" <"$OUT/diff" >"$OUT/patch.log" 2>&1 || fail "patch: $(cat "$OUT/patch.log")"
check_files_eq "the fstab patched" "$OUT/fstab.expected" "$FSTAB"
suggest again --exports "$EXPORTS" --fstab "$FSTAB" --diff --format server-fstab "$FEX"
check_suggest_rc again 0
check_eq "suggest --diff once applied: nothing" "" "$(cat "$OUT/again")"
finish
