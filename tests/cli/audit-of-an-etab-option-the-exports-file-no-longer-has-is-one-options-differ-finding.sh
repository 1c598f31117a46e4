#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# An option only in effect is drift: the etab exportfs 2.6.2 wrote while
# /srv/f still had squash_uids=0-15 (tests/data/etab with that option put
# where putexportent() in nfs-utils' support/nfs/exports.c writes it: after
# refer=/replicas=, before anonuid=), audited against the exports file that
# no longer has it, is exactly one options_differ finding, for /srv/f, whose
# one difference is the squash_uids=0-15 in effect and not in the file.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

data=$(dirname "$0")/../data
exports=$data/etab/debian12-nfs-utils-2.6.2.exports
mountinfo=$data/mountinfo/btrfs-subvolumes-overlay-nfs4.mountinfo
etab=$TMP/etab

sed 's|^\(/srv/f\t127\.0\.0\.1(.*,refer=/srv/x@10\.0\.0\.9,\)\(anonuid=\)|\1squash_uids=0-15,\2|' \
	"$data/etab/debian12-nfs-utils-2.6.2.etab" >"$etab"
check_eq "the etab's /srv/f line carries squash_uids=0-15 before anonuid=" 1 \
	"$(grep -c $'^/srv/f\t127\\.0\\.0\\.1(.*,refer=/srv/x@10\\.0\\.0\\.9,squash_uids=0-15,anonuid=-2,' "$etab")"
grep -q 'squash_uids' "$exports" && fail "the exports file has squash_uids"

run audit -q --json --etab "$etab" --exports "$exports" --mountinfo "$mountinfo"
grep -qE 'Sanitizer|runtime error' "$ERR" && fail "$(cat "$ERR")"
check_eq "one finding: options_differ for /srv/f to 127.0.0.1" \
	"options_differ /srv/f 127.0.0.1" \
	"$(jq -r '.exports_drift[] | "\(.kind) \(.path) \(.client)"' "$OUT")"
check_eq "its one difference: squash_uids=0-15 in effect, not in the file" \
	"1 in_effect_only" \
	"$(jq -r '.exports_drift[0].differences |
		"\(length) " + (.[0] | if (.in_effect | test("squash_uids=0-15$|^0-15$")) and
			(.files | test("0-15") | not) then "in_effect_only" else tostring end)' "$OUT")"
