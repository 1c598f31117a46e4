#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# How safe.prom, unsafe.prom and drifted.prom were recorded: btrfs-ino audit
# --format prometheus, as btrfs-ino-audit.service runs it (no PATH: every
# exported path), on the classic layout (scripts/classic-layout.sh) seen at
# /data, against an etab in exportfs 2.6.2's own format:
#   unsafe   /data/fex exported plain, nothing mounted below it;
#   safe     /data/fex exported with crossmnt, and btrfs-ino mount run;
#   drifted  the safe server whose /etc/exports has lost crossmnt and not
#            been re-exported (exportfs -ra not run): options_differ;
#   failing  the safe server also exporting /data/gone, which does not
#            exist (a subvolume deleted, a disk not mounted): not audited.
# Usage, as root, on a machine without /data: record.sh BTRFS_INO [OUTDIR]
set -euo pipefail
btrfs_ino=$(realpath "${1:?usage: record.sh BTRFS_INO [OUTDIR]}")
out=$(realpath "${2:-$(dirname "$0")}")
src=$(cd "$(dirname "$0")/../../.." && pwd)
[[ ! -e /data ]] || { echo "record.sh: /data exists; it binds the layout there" >&2; exit 2; }

work=$(mktemp -d)
cleanup() {
	umount -R /data 2>/dev/null || true
	rmdir /data 2>/dev/null || true
	"$src/scripts/classic-layout.sh" destroy "$work" >/dev/null 2>&1 || true
	rm -rf "$work"
}
trap cleanup EXIT
"$src/scripts/classic-layout.sh" create "$work" >/dev/null
mkdir /data
mount --bind "$work/mnt" /data

# etab_line OPTIONS: /data/fex's etab line as exportfs -ra writes it for
# "/data/fex *(rw,no_subtree_check,OPTIONS)".
etab_line() {
	printf '/data/fex\t*(rw,sync,wdelay,hide,%s,secure,root_squash,no_all_squash,no_subtree_check,secure_locks,acl,no_pnfs,anonuid=65534,anongid=65534,sec=sys,rw,secure,root_squash,no_all_squash)\n' "$1"
}
record() {
	"$btrfs_ino" audit -q --format prometheus --etab "$work/etab" \
		--exports "$work/exports" --fstab /dev/null >"$out/$1.prom" || true
}

echo '/data/fex *(rw,no_subtree_check)' >"$work/exports"
etab_line nocrossmnt >"$work/etab"
record unsafe
echo '/data/fex *(rw,no_subtree_check,crossmnt)' >"$work/exports"
etab_line crossmnt >"$work/etab"
"$btrfs_ino" mount -q --exports "$work/exports" /data/fex >/dev/null
record safe
echo '/data/fex *(rw,no_subtree_check)' >"$work/exports"
record drifted
printf '/data/fex *(rw,no_subtree_check,crossmnt)\n/data/gone *(rw,no_subtree_check)\n' >"$work/exports"
{ etab_line crossmnt; etab_line nocrossmnt | sed 's|^/data/fex|/data/gone|'; } >"$work/etab"
record failing
