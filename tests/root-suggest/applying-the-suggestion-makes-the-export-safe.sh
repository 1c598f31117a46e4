#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The suggested server fstab, mounted (mount -a -T, in a private mount
# namespace), then btrfs-ino mount for the snapshots the fstab leaves to it,
# with the suggested exports: audit then finds the export safe (exit 0),
# with either exports block, and suggest has nothing left to say.  With the
# fstab alone the snapshots stay unmounted: still unsafe, and btrfs-ino
# mount --dry-run plans exactly them.  Nothing outside the test's namespace
# is mounted, before or after (below the fixture, where the suggested
# mounts would go).
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
command -v unshare >/dev/null || skip_or_fail "needs unshare"

suggest fstab --exports "$EXPORTS" --format server-fstab "$FEX"
suggest crossmnt --exports "$EXPORTS" --format exports "$FEX"
suggest nohide --exports "$EXPORTS" --format exports-nohide "$FEX"
# The mounts of this test's fixture: other root tests may mount their own
# fixtures meanwhile, and those are no change of ours.
fixture_mounts() {
	findmnt -n -l -o TARGET | awk -v work="$WORK" 'index($0, work) == 1' | sort
}
fixture_mounts >"$OUT/mounts.before"

rc=0
"$BTRFS_INO" audit -q --exports "$OUT/crossmnt" "$FEX" >/dev/null 2>&1 || rc=$?
check_eq "crossmnt alone, nothing mounted: still unsafe" 1 "$rc"

for block in crossmnt nohide; do
	rc=0
	apply_all "$OUT/$block" "$BTRFS_INO" audit -q --exports "$OUT/$block" "$FEX" \
		>"$OUT/audit-$block" 2>&1 || rc=$?
	check_eq "mounts + $block: audit exit status" 0 "$rc"
	grep -qxF -- "$FEX: safe" "$OUT/audit-$block" || fail "mounts + $block: no safe verdict"
done
rc=0
apply_all "$OUT/nohide" "$BTRFS_INO" audit -q --nfsv4 --exports "$OUT/nohide" "$FEX" \
	>/dev/null 2>&1 || rc=$?
check_eq "mounts + nohide, NFSv4 model: audit exit status" 0 "$rc"
rc=0
apply_all "$OUT/crossmnt" "$BTRFS_INO" suggest -q --exports "$OUT/crossmnt" "$FEX" \
	>"$OUT/again" 2>&1 || rc=$?
check_eq "suggest after applying: exit status" 0 "$rc"
grep -qF "$FEX: safe for NFS clients; the server needs no change," "$OUT/again" ||
	fail "suggest after applying does not say safe: $(head -3 "$OUT/again")"

# The fstab alone: the snapshots stay plain directories, the loop stays,
# and what is left to mount is exactly the snapshots.
rc=0
apply_and_run "$OUT/fstab" "$BTRFS_INO" audit -q --exports "$OUT/crossmnt" "$FEX" \
	>/dev/null 2>&1 || rc=$?
check_eq "fstab alone: audit exit status" 1 "$rc"
rc=0
apply_and_run "$OUT/fstab" "$BTRFS_INO" suggest -q --exports "$OUT/crossmnt" \
	--format server-fstab "$FEX" >"$OUT/rest" 2>"$OUT/rest.err" || rc=$?
check_eq "fstab alone: suggest exit status" 0 "$rc"
check_eq "fstab alone: no fstab line left to add" "" "$(config_lines "$OUT/rest")"
apply_and_run "$OUT/fstab" "$BTRFS_INO" mount -q --dry-run --exports "$OUT/crossmnt" "$FEX" \
	2>/dev/null | sed -n 's/^mount .* on //p' | sort >"$OUT/planned"
btrfs subvolume list -s "$MNT" | sed "s|^.* path |$MNT/|" | sort >"$OUT/snapshots"
check_files_eq "fstab alone: btrfs-ino mount plans exactly the snapshots" \
	"$OUT/snapshots" "$OUT/planned"

fixture_mounts >"$OUT/mounts.after"
check_files_eq "host mounts below the fixture unchanged" "$OUT/mounts.before" "$OUT/mounts.after"
finish
