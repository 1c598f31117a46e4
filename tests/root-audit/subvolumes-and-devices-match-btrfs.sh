#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The subvolumes an audit reports are those btrfs-progs lists below fex, with
# the parent, read-only flag and snapshot source btrfs subvolume show gives;
# every st_dev find meets is a device of the report, "listed" exactly when
# /proc/self/mountinfo lists it, and never an anomaly on plain btrfs.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,no_subtree_check)"
audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1

# id parent_id read_only snapshot_of, from btrfs-progs.
: >"$OUT/expected-subvols"
for path in "$fex" "$fex/spool" "$fex/spool/inner" "$fex/spool/.snapshot/s1" \
	"$fex/spool/.snapshot/s2" "$fex/spool/.snapshot/s3"; do
	id=$(btrfs inspect-internal rootid -- "$path")
	show=$(btrfs subvolume show -- "$path")
	parent=$(awk -F'\t+' '/^[[:space:]]*Parent ID:/ { print $NF }' <<<"$show")
	ro=false
	grep -Eq '^[[:space:]]*Flags:.*readonly' <<<"$show" && ro=true
	puuid=$(awk '/^[[:space:]]*Parent UUID:/ { print $NF }' <<<"$show")
	of=null
	if [[ $puuid != - ]]; then
		of=$(btrfs subvolume list -u "$MNT" | awk -v u="$puuid" '{ for (i = 1; i < NF; i++) if ($i == "uuid" && $(i + 1) == u) print $2 }')
	fi
	printf '%s %s %s %s %s\n' "$id" "$path" "$parent" "$ro" "$of" >>"$OUT/expected-subvols"
done
jq -r '.exports[0].subvolumes[] | "\(.id) \(.path) \(.parent_id) \(.read_only) \(.snapshot_of)"' \
	"$OUT/json" >"$OUT/actual-subvols"
sort -o "$OUT/expected-subvols" "$OUT/expected-subvols"
sort -o "$OUT/actual-subvols" "$OUT/actual-subvols"
check_files_eq "subvolumes (id path parent read_only snapshot_of)" \
	"$OUT/expected-subvols" "$OUT/actual-subvols"

# Devices: every st_dev of find, and whether mountinfo lists it.
find "$fex" -printf '%D\n' | sort -u >"$OUT/find-devs"
awk '{ print $3 }' /proc/self/mountinfo | sort -u >"$OUT/listed-majmin"
while read -r d; do
	majmin="$(((d >> 8) & 0xfff)):$(((d & 0xff) | ((d >> 12) & 0xfff00)))"
	listed=false
	grep -qx -- "$majmin" "$OUT/listed-majmin" && listed=true
	printf '%s %s\n' "$majmin" "$listed"
done <"$OUT/find-devs" | sort >"$OUT/expected-devs"
jq -r '.exports[0].devices[] | "\(.dev) \(.listed)"' "$OUT/json" | sort >"$OUT/actual-devs"
check_files_eq "devices (dev listed)" "$OUT/expected-devs" "$OUT/actual-devs"
check_eq "anomalies" 0 "$(jq -r '.exports[0].device_anomalies' "$OUT/json")"
check_eq "unlisted devices are btrfs subvolumes" "" \
	"$(jq -r '.exports[0].devices[] | select(.listed | not) | select(.kind != "btrfs_subvolume") | .dev' "$OUT/json")"
finish
