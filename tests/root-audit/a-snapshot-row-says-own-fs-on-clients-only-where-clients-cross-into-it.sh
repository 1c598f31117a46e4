#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# fex exported with crossmnt, fex/spool mounted on its own path, its
# snapshots and inner subvolume not: clients cross into spool alone, so in
# the tree only spool's subvolume row says "own fs on clients", and every
# row that says it has a CLIENT-FS of its own, not the one of the row it
# hangs from (the snapshots share spool's, as their column shows).
source "$(dirname -- "$0")/audit-lib.sh"
spool_mounted_crossmnt
fex=$FEX
spool=$SPOOL

audit_tree rows --exports "$OUT/exports" "$fex"
check_audit_rc rows 1
# The subvolumes clients get a filesystem for: those that are mount points.
for id_path in "$ID_SPOOL $spool" "$ID_INNER $spool/inner" "$ID_S1 $spool/.snapshot/s1" \
	"$ID_S2 $spool/.snapshot/s2" "$ID_S3 $spool/.snapshot/s3"; do
	mountpoint -q -- "${id_path#* }" && echo "${id_path%% *}"
done >"$OUT/expected-own"
tree_rows "$OUT/rows" | awk -F'\t' '
	($2 == "subvolume" || $2 == "snapshot") && $11 ~ /own fs on clients/ { print $3 }' \
	>"$OUT/actual-own"
check_files_eq "rows that say own fs on clients" "$OUT/expected-own" "$OUT/actual-own"
# CLIENT-FS by subvolume ID, the export's own (0) for the row of fex.
check_eq "rows saying own fs whose CLIENT-FS is their parent's" "" \
	"$(tree_rows "$OUT/rows" | awk -F'\t' '
		$2 == "export" { fs["export"] = 0 }
		$2 == "subvolume" || $2 == "snapshot" {
			fs[$3] = $9
			parent = $4 == "" ? "export" : $4
			if ($11 ~ /own fs on clients/ && fs[parent] == $9) print $3
		}')"
finish
