#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The table's machine forms say what the JSON document says: with --pairs,
# the export row's LOOP/HARDLINK/PLAIN are .collisions, the subvolume and
# snapshot rows are .subvolumes (ID, OF = snapshot_of, CLIENT-FS =
# client_fs), the mount rows are .submounts' mount IDs; --raw -n gives the
# same rows as --pairs; -J is --json, the same document byte for byte.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture
command -v jq >/dev/null || skip_or_fail "needs jq"

fex=$MNT/fex
write_exports "$OUT/exports" "$fex *(rw,crossmnt,no_subtree_check)"
audit json --json --exports "$OUT/exports" "$fex"
check_audit_rc json 1
audit J -J --exports "$OUT/exports" "$fex"
check_files_eq "-J and --json" "$OUT/json" "$OUT/J"

cols=TYPE,ID,OF,LOOP,HARDLINK,PLAIN,CLIENT-FS
audit pairs --pairs -o "$cols" --exports "$OUT/exports" "$fex"
check_audit_rc pairs 1
# Pairs as JSON objects, one per row, for jq.
sed -E 's/([A-Z-]+)="([^"]*)"/"\1":"\2",/g; s/,$//; s/^/{/; s/$/}/' "$OUT/pairs" |
	jq -s . >"$OUT/rows.json"
check_eq "export row counts" \
	"$(jq -r '.exports[0].collisions | "\(.loop) \(.hardlink) \(.plain)"' "$OUT/json")" \
	"$(jq -r '.[] | select(.TYPE == "export") | "\(.LOOP) \(.HARDLINK) \(.PLAIN)"' "$OUT/rows.json")"
check_eq "subvolume rows (id of client_fs)" \
	"$(jq -r '.exports[0].subvolumes[] | "\(.id) \(if (.snapshot_of | type) == "number" then .snapshot_of else "" end) \(.client_fs)"' "$OUT/json" | sort)" \
	"$(jq -r '.[] | select(.TYPE == "subvolume" or .TYPE == "snapshot") | "\(.ID) \(.OF) \(.["CLIENT-FS"])"' "$OUT/rows.json" | sort)"
check_eq "mount rows" \
	"$(jq -r '[.exports[0].subvolumes[].server_mounts[].mount_id] + [.exports[0].submounts[].mount.mount_id] | unique | .[]' "$OUT/json" | sort -n)" \
	"$(jq -r '[.[] | select(.TYPE == "mount") | .ID | tonumber] | unique | .[]' "$OUT/rows.json" | sort -n)"

audit raw --raw -n -o "$cols" --exports "$OUT/exports" "$fex"
check_audit_rc raw 1
sed -E 's/[A-Z-]+="([^"]*)"/\1/g' "$OUT/pairs" >"$OUT/pairs-values"
# --raw separates values by one space, an empty one is empty.
check_files_eq "--raw -n rows and --pairs values" "$OUT/pairs-values" "$OUT/raw"
finish
