#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The audit's prediction against reality: GNU find on the client stops exactly at the
# loop directories the server-side audit predicts, and lists exactly what lies outside them.
set -euo pipefail
. ./lib.sh
need_btrfs_ino

# Server: btrfs at /data, the classic layout, fex exported as in the user report, plus a
# second subvolume beside spool (fex/other) so find must meet more than one loop.
scratch_btrfs /data
classic_layout /data
btrfs -q subvolume create /data/fex/other
mkdir -p /data/fex/other/x/y
touch /data/fex/other/x/y/z /data/fex/other/w
nfs_server_start '/data/fex 127.0.0.1(rw,async,no_subtree_check,no_root_squash)'
# Client: the export mounted with NFSv3 and NFSv4.2.
versions=(3 4.2)
for v in "${versions[@]}"; do
	nfs_mount "$v" "/mnt/v$v"
done

# Expectations:
#   - the audit of /data/fex against /etc/exports predicts N loop directories, N at most
#     the examples the report lists (so the examples are the complete list);
#   - the directories GNU find names in its "File system loop detected" errors are exactly
#     the predicted loop directories that have no predicted-loop ancestor;
#   - the number of entries find prints equals the number of the server's entries outside
#     those loop subtrees (each loop directory included in its subtree).
say "server: btrfs-ino audit --json --exports /etc/exports /data/fex"
audit_rc=0
btrfs-ino audit --json -q --exports /etc/exports /data/fex >/tmp/audit.json || audit_rc=$?
loops=$(jq '.exports[0].collisions.loop' /tmp/audit.json)
listed=$(jq '.exports[0].examples.loop | length' /tmp/audit.json)
say "audit exits $audit_rc: $loops loop directories predicted, $listed listed"
check "audit exits 1 (findings)" test "$audit_rc" -eq 1
check "every predicted loop directory is listed ($loops <= $listed)" test "$loops" -le "$listed"

# The loop directory of each example is its deeper path, "b"; keep those with no
# predicted-loop ancestor: the ones find reports (it never enters the others).
jq -r '.exports[0].examples.loop[].b.path' /tmp/audit.json | LC_ALL=C sort -u >/tmp/loops
awk '{ for (i = 1; i <= n; i++) if (index($0, seen[i] "/") == 1) next; seen[++n] = $0; print }' \
	/tmp/loops | sed 's|^/data/fex||' >/tmp/outermost
sed 's/^/   predicted: /' /tmp/outermost
# The server's entries outside those subtrees.
find /data/fex | sed 's|^/data/fex||' | awk 'NR == FNR { top[++n] = $0; next }
	{ for (i = 1; i <= n; i++) if ($0 == top[i] || index($0, top[i] "/") == 1) next; print }' \
	/tmp/outermost - >/tmp/outside
say "server: $(find /data/fex | wc -l) entries, $(wc -l </tmp/outside) outside the predicted loops"

for v in "${versions[@]}"; do
	mnt=/mnt/v$v
	find "$mnt" >"/tmp/find-v$v.out" 2>"/tmp/find-v$v.err" || true
	sed -n "s|^find: File system loop detected; '$mnt\(.*\)' is part of the same file system loop as .*|\1|p" \
		"/tmp/find-v$v.err" | LC_ALL=C sort >"/tmp/find-v$v.loops"
	say "client vers=$v: find prints $(wc -l <"/tmp/find-v$v.out") entries, $(wc -l <"/tmp/find-v$v.loops") loop errors"
	check "vers=$v: find's loop directories are the predicted outermost ones" \
		diff -u <(LC_ALL=C sort /tmp/outermost) "/tmp/find-v$v.loops"
	check "vers=$v: find prints as many entries as lie outside the predicted loops" \
		test "$(wc -l <"/tmp/find-v$v.out")" -eq "$(wc -l </tmp/outside)"
done

for v in "${versions[@]}"; do
	umount "/mnt/v$v"
done
finish
