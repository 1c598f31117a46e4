#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# What the server serves now, and the fix applied without hand-editing, on a real NFS
# server (issue 13, proofs 4 and 5).
#
# Usage: live-table.sh MODE
#   drift  /etc/exports edited without exportfs -ra: audit (no options) audits the etab,
#          reports the drift and exits 1; after exportfs -ra it exits 0 (a safe export);
#          an export removed from the file but still in effect is drift too
#   diff   suggest --diff applied with patch (busybox's, not GNU's) to a copy of
#          /etc/exports (a continued entry, the path on two lines) and /etc/fstab gives
#          exactly what the --format blocks say; installed, mounted and exportfs -ra'd,
#          the export audits safe with no drift
set -euo pipefail
. ./lib.sh

mode=${1:?usage: live-table.sh drift|diff}
need_btrfs_ino
scratch_btrfs /data

# audit_run NAME ARGS...: btrfs-ino audit -q ARGS, stdout in /tmp/NAME, status in rc.
audit_run() {
	local name=$1
	shift
	rc=0
	btrfs-ino audit -q "$@" >"/tmp/$name" 2>"/tmp/$name.err" || rc=$?
}

drift() {
	# A plain directory on the filesystem's one subvolume: nothing to collide.
	mkdir -p /data/plain /data/other
	fill_tree /data/plain 2 3
	nfs_server_start '/data/plain 127.0.0.1(rw,no_subtree_check)'
	check "exportfs wrote the etab" test -s /var/lib/nfs/etab
	sed 's/^/   etab: /' /var/lib/nfs/etab | cut -c1-150

	audit_run clean --json
	check "as started: audit exits 0 (got $rc)" test "$rc" -eq 0
	check "as started: the etab is audited, no drift" test \
		"$(jq -r '"\(.export_table.audited) \(.export_table.etab_state) \(.exports_drift | length) \(.fstab_drift | length)"' /tmp/clean)" = "etab read 0 0"

	# Edited, not applied: rw becomes ro, and a second export is added.
	printf '%s\n' '/data/plain 127.0.0.1(ro,no_subtree_check)' \
		'/data/other 127.0.0.1(rw,no_subtree_check)' >/etc/exports
	# -v: the per-path details say which export applies.
	audit_run edited -v
	cat /tmp/edited.err >&2
	check "edited: audit exits 1 (got $rc)" test "$rc" -eq 1
	grep 'drift' /tmp/edited | sed 's/^/   /'
	check "edited: the changed options are named" grep -qF \
		'export drift: /data/plain to 127.0.0.1: options of /etc/exports:1 are not those in effect (/var/lib/nfs/etab:1): ro (in effect: rw); run exportfs -ra' /tmp/edited
	check "edited: the new line is not in effect" grep -qF \
		'export drift: /data/other to 127.0.0.1: /etc/exports:2 is not in effect; run exportfs -ra' /tmp/edited
	check "edited: what is audited is what clients get (rw, from the etab)" grep -q \
		'exported to 127.0.0.1(rw,.* in /var/lib/nfs/etab:1$' /tmp/edited

	exportfs -ra
	audit_run applied --json
	check "after exportfs -ra: audit exits 0 (got $rc)" test "$rc" -eq 0
	check "after exportfs -ra: no drift" test "$(jq '.exports_drift | length' /tmp/applied)" = 0

	# Removed from the file, still exported.
	printf '%s\n' '/data/plain 127.0.0.1(ro,no_subtree_check)' >/etc/exports
	audit_run removed --json
	check "removed: audit exits 1 (got $rc)" test "$rc" -eq 1
	check "removed: /data/other is in effect but in no file" test \
		"$(jq -r '[.exports_drift[] | "\(.kind) \(.path)"] | join(",")' /tmp/removed)" = "not_in_files /data/other"
	exportfs -ra
	audit_run removed-applied
	check "removed, after exportfs -ra: audit exits 0 (got $rc)" test "$rc" -eq 0
}

# apply_replacements BLOCK FILE: FILE as it reads after doing what BLOCK
# says (tests/root-suggest/apply-replacements.awk, which run-vm.sh copies).
apply_replacements() {
	awk -v file="$2" -f /scenarios/apply-replacements.awk "$1" "$2"
}

diff_mode() {
	classic_layout /data
	nfs_server_start '# exports' '/data/fex \' '  127.0.0.1(rw,async,no_subtree_check,no_root_squash)' \
		'/data/fex 127.0.0.2(ro,no_subtree_check)'
	printf '%s\n' '# /etc/fstab: static file system information.' >/etc/fstab

	btrfs-ino suggest -q --format exports /data/fex >/tmp/exports.block || true
	btrfs-ino suggest -q --format server-fstab /data/fex >/tmp/fstab.block || true
	apply_replacements /tmp/exports.block /etc/exports >/tmp/exports.expected
	{ cat /etc/fstab; grep -v -e '^#' -e '^$' /tmp/fstab.block; } >/tmp/fstab.expected
	rc=0
	btrfs-ino suggest -q --diff /data/fex >/tmp/suggest.diff || rc=$?
	check "suggest --diff exits 1 (got $rc)" test "$rc" -eq 1
	cut -c1-150 /tmp/suggest.diff | sed 's/^/   /'

	mkdir -p /tmp/copy/etc
	cp /etc/exports /etc/fstab /tmp/copy/etc/
	check "busybox patch -p0 applies the diff to the copies" \
		sh -c 'cd /tmp/copy && busybox patch -p0 -i /tmp/suggest.diff'
	check "the patched exports copy is what the exports block says" \
		diff -u /tmp/exports.expected /tmp/copy/etc/exports
	check "the patched fstab copy is the fstab plus the server-fstab block" \
		diff -u /tmp/fstab.expected /tmp/copy/etc/fstab
	check "the exports block replaced lines 2-3 and 4" test \
		"$(grep -c '^# replace' /tmp/exports.block)" = 2

	# Installed: the export is safe for what clients get, and nothing drifts.
	cp /tmp/copy/etc/exports /tmp/copy/etc/fstab /etc/
	[[ -e /etc/mtab ]] || ln -s /proc/self/mounts /etc/mtab
	audit_run mounts-pending --json /data/fex
	check "fstab patched, not mounted: audit exits 1 (got $rc)" test "$rc" -eq 1
	check "fstab patched, not mounted: every new line is fstab drift" test \
		"$(jq '.fstab_drift | length' /tmp/mounts-pending)" = "$(grep -vc '^#' /tmp/fstab.block)"
	check "exports patched, not exported: the lines are drift" test \
		"$(jq '[.exports_drift[] | select(.kind == "options_differ")] | length' /tmp/mounts-pending)" = 2
	mount -a
	# The snapshots, as the suggestion says: btrfs-ino mount's.
	btrfs-ino mount -q /data/fex | sed 's/^/   /'
	exportfs -ra
	audit_run fixed --json /data/fex
	cat /tmp/fixed.err >&2
	check "applied, mounted, btrfs-ino mount, exportfs -ra: audit exits 0 (got $rc)" test "$rc" -eq 0
	check "applied: safe, no drift" test \
		"$(jq -r '"\(.exports[0].verdict.safe) \(.exports_drift | length) \(.fstab_drift | length)"' /tmp/fixed)" = "true 0 0"
}

case $mode in
drift) drift ;;
diff) diff_mode ;;
*) echo "unknown mode $mode" >&2; exit 2 ;;
esac
finish
