#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# btrfs-ino walk on NFS clients of the classic layout: the server's entries and subvolumes, no loop where find sees one.
set -euo pipefail
. ./lib.sh
need_btrfs_ino
start=$SECONDS

# Server: btrfs at /data, the classic layout (fex exported; spool nested in it, with
# snapshots s1, s2 (read-only), s3 under spool/.snapshot; s2 and s3 hold placeholders).
scratch_btrfs /data
classic_layout /data
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'

# Client: mount -t nfs -o vers=V 127.0.0.1:/data/fex /mnt/vV, one mount per version.
versions=(3 4.2 4.0)
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v"
done
findmnt -t nfs,nfs4 -o TARGET,SOURCE,FSTYPE,OPTIONS | cut -c1-120
say "server and client mounts ready after $((SECONDS - start))s"

# Expectations, every version:
#   - the client's walk reports the same relative paths as the server's walk of /data/fex
#     (run here, now: the reference) and no loop;
#   - the placeholders the server's walk marks (subvol_placeholder) cannot be served: knfsd
#     cannot resolve their handles (ESTALE, 116) where the server's walk reads an empty
#     directory. Each is an entry (dir, inode 2) then an error record (step "open"), or,
#     when the client's attribute cache has to ask the server again, only an error record
#     (step "stat"). No other error; exit status 1 (entries unreadable) because of
#     them, 0 if there were none;
#   - fstype is "nfs" (vers=3) or "nfs4";
#   - every entry is as walk --stat-all gives it: a non-directory's identity from readdir
#     (d_ino, its directory's subvolume) is the one stat and the handles give;
#   - GNU find on the same mount still reports "File system loop detected".
# Where the client can read the server's handles (name_to_handle_at works):
#   - every entry has the subvolid the server's walk gives the same path; source "nfs_handle".
# Where it cannot (vers=4.0: name_to_handle_at gives EOPNOTSUPP):
#   - every entry is identity_uncertain, with an uncertain_reason.
declare -A handles=([3]=yes [4.2]=yes [4.0]=no)
# Records shown for each walk: export root, spool root, a snapshot's file, a placeholder.
examples=(. spool spool/.snapshot/s1/d0/f0 spool/.snapshot/s2/.snapshot/s1)

# show_examples JSON ROOT: the walk's records for the example paths.
show_examples() {
	local p paths=()
	for p in "${examples[@]}"; do
		if [[ $p == . ]]; then paths+=("$2"); else paths+=("$2/$p"); fi
	done
	walk_records "$1" "${paths[@]}" | sed 's/^/   /'
}
# TABLE's relative paths of entries, sorted; with "errors", those of error records too.
reported_paths() {
	if [[ ${2:-} == errors ]]; then
		walk_rows "$1" 'event == "entry" || event == "error"' '{ print path }'
	else
		walk_rows "$1" 'event == "entry"' '{ print path }'
	fi | LC_ALL=C sort -u
}
# count TABLE AWK_CONDITION
count() {
	walk_rows "$1" "$2" | wc -l
}
# Entries of the client TABLE, with a certain identity, whose subvolid is not the one the
# server's walk gives the same path.
mismatched_subvolids() {
	awk -F'\t' 'NR == FNR { if ($2 == "entry") sv[$1] = $5; next }
		$2 == "entry" && $8 !~ /identity_uncertain/ && sv[$1] != $5' /tmp/server.tsv "$1"
}
# mismatched_flags TABLE: entries of the client TABLE whose subvol_root and
# subvol_placeholder flags differ from the server's for the same path (mount_root
# differs by nature: the client's export root is a mount).
mismatched_flags() {
	awk -F'\t' '
		function kept(f,   n, a, i, out) {
			n = split(f, a, ",")
			for (i = 1; i <= n; i++)
				if (a[i] == "subvol_root" || a[i] == "subvol_placeholder")
					out = out a[i] ","
			return out
		}
		NR == FNR { if ($2 == "entry") fl[$1] = kept($8); next }
		$2 == "entry" && fl[$1] != kept($8) { print $1 ": server " fl[$1] " client " kept($8) }
	' /tmp/server.tsv "$1"
}
# error_paths TABLE: the paths of error records, sorted.
error_paths() {
	walk_rows "$1" 'event == "error"' '{ print path }' | LC_ALL=C sort
}
# placeholder_records TABLE: per error record's path, in walk order, "PATH: R1; R2" where
# each R is "entry TYPE INO" or "error ERRNO STEP".
placeholder_records() {
	walk_rows "$1" 'event == "entry" { rec[path] = rec[path] "; entry " type " " ino }
		event == "error" { rec[path] = rec[path] "; error " errno " " step }
		event == "error" && !(path in seen) { seen[path] = 1; order[n++] = path }
		END { for (i = 0; i < n; i++) print order[i] ":" substr(rec[order[i]], 2) }' '{ }'
}
# placeholders_unreadable TABLE: each error record is a placeholder the client could list
# but not open, or could not stat, both with ESTALE.
placeholders_unreadable() {
	placeholder_records "$1" | awk -F': ' '
		$2 != "entry dir 2; error 116 open" && $2 != "error 116 stat" { bad++ }
		{ print "   " $0 } END { exit (bad > 0) }'
}
# stat_all_comparable TABLE: its entries, sorted, but the placeholders (dir, inode 2),
# whose records depend on the client's attribute cache (see above).
stat_all_comparable() {
	walk_rows "$1" 'event == "entry" && !(type == "dir" && ino == 2)' | LC_ALL=C sort
}
# find_reports_loop MNT ERR: GNU find fails on MNT with the loop message (kept in ERR).
find_reports_loop() {
	! find "$1" >/dev/null 2>"$2" && grep -q 'File system loop detected' "$2"
}

t0=$SECONDS
say "server: btrfs-ino walk --json /data/fex"
server_rc=0
btrfs-ino walk --json /data/fex >/tmp/server.json || server_rc=$?
walk_table /data/fex /tmp/server.json >/tmp/server.tsv
say "server: walk exits $server_rc after $((SECONDS - t0))s, $(wc -l </tmp/server.tsv) records"
show_examples /tmp/server.json /data/fex
walk_rows /tmp/server.tsv 'has("subvol_placeholder")' '{ print path }' | LC_ALL=C sort >/tmp/placeholders
expected_rc=0
[[ -s /tmp/placeholders ]] && expected_rc=1
check "server: walk exits 0" test "$server_rc" -eq 0
check "server: no loop or error record" test "$(count /tmp/server.tsv 'event != "entry"')" -eq 0
check "server: three placeholders marked (s2 holds one, s3 two)" test "$(wc -l </tmp/placeholders)" -eq 3

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	table=/tmp/client-v$v.tsv
	fstype=nfs4
	[[ $v == 3 ]] && fstype=nfs
	t0=$SECONDS
	rc=0
	btrfs-ino walk --json "$mnt" >"/tmp/client-v$v.json" 2>"/tmp/client-v$v.err" || rc=$?
	echo "$rc" >"/tmp/client-v$v.rc"
	walk_table "$mnt" "/tmp/client-v$v.json" >"$table"
	say "client vers=$v: btrfs-ino walk --json $mnt exits $rc after $((SECONDS - t0))s, $(wc -l <"$table") records"
	sed 's/^/   stderr: /' "/tmp/client-v$v.err" | head -n 5
	show_examples "/tmp/client-v$v.json" "$mnt"

	check "vers=$v: walk exits $expected_rc" test "$rc" -eq "$expected_rc"
	btrfs-ino walk --json --stat-all "$mnt" >"/tmp/stat-all-v$v.json" 2>/dev/null || true
	walk_table "$mnt" "/tmp/stat-all-v$v.json" >"/tmp/stat-all-v$v.tsv"
	check "vers=$v: the same entries as walk --stat-all (readdir's d_ino is st_ino)" \
		diff -u <(stat_all_comparable "/tmp/stat-all-v$v.tsv") <(stat_all_comparable "$table")
	check "vers=$v: same relative paths as the server's walk (entries and error records)" \
		diff -u <(reported_paths /tmp/server.tsv) <(reported_paths "$table" errors)
	check "vers=$v: no loop record" test "$(count "$table" 'event == "loop"')" -eq 0
	check "vers=$v: error records for the placeholders only" \
		diff -u /tmp/placeholders <(error_paths "$table")
	check "vers=$v: placeholders: entry dir 2 then ESTALE on open, or ESTALE on stat" \
		placeholders_unreadable "$table"
	check "vers=$v: every entry's fstype is $fstype" \
		test "$(count "$table" "event == \"entry\" && fstype != \"$fstype\"")" -eq 0
	if [[ ${handles[$v]} == yes ]]; then
		check "vers=$v: every entry has the server's subvolid for its path" \
			test -z "$(mismatched_subvolids "$table")"
		check "vers=$v: no entry is identity_uncertain" \
			test "$(count "$table" 'has("identity_uncertain")')" -eq 0
		check "vers=$v: subvol_root and subvol_placeholder as on the server" \
			test -z "$(mismatched_flags "$table")"
		check "vers=$v: every entry's source is nfs_handle" \
			test "$(count "$table" 'event == "entry" && source != "nfs_handle"')" -eq 0
	else
		check "vers=$v: every entry is identity_uncertain, with an uncertain_reason" \
			test "$(count "$table" 'event == "entry" && !(has("identity_uncertain") && reason != "-")')" -eq 0
	fi
	check "vers=$v: GNU find on the same mount reports the loop and exits non-zero" \
		find_reports_loop "$mnt" "/tmp/find-v$v.err"
	say "vers=$v: walk and checks took $((SECONDS - t0))s"
done

say "summary (mismatched: client subvolids, where certain, that differ from the server's)"
row='%-8s %7s %7s %6s %9s %10s %6s %5s %9s\n'
# shellcheck disable=SC2059 # the format is the row above
printf "$row" version server client loops uncertain mismatched errors exit find-loop
for v in "${versions[@]}"; do
	table=/tmp/client-v$v.tsv
	# shellcheck disable=SC2059
	printf "$row" "$v" \
		"$(count /tmp/server.tsv 'event == "entry"')" "$(count "$table" 'event == "entry"')" \
		"$(count "$table" 'event == "loop"')" "$(count "$table" 'has("identity_uncertain")')" \
		"$(mismatched_subvolids "$table" | wc -l)" "$(count "$table" 'event == "error"')" \
		"$(cat "/tmp/client-v$v.rc")" "$(grep -c 'File system loop detected' "/tmp/find-v$v.err" || true)"
done

for v in "${versions[@]}"; do
	umount "/mnt/v$v"
done
say "scenario took $((SECONDS - start))s"
finish
