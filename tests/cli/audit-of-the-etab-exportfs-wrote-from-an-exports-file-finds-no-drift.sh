#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The etab exportfs 2.6.2 wrote from an exports file (tests/data/etab, every
# option written out, fsid=root as fsid=0, mp= as mountpoint=, sec= flavours
# with their own options, a client "*") is no drift from that file, and each
# entry audited comes from the etab; one option edited in the file is one
# options_differ finding naming that setting.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

data=$(dirname "$0")/../data
etab=$data/etab/debian12-nfs-utils-2.6.2.etab
exports=$data/etab/debian12-nfs-utils-2.6.2.exports
mountinfo=$data/mountinfo/btrfs-subvolumes-overlay-nfs4.mountinfo

run audit -q --json --etab "$etab" --exports "$exports" --mountinfo "$mountinfo"
grep -qE 'Sanitizer|runtime error' "$ERR" && fail "$(cat "$ERR")"
check_eq "the etab is read and audited" "etab read" \
	"$(jq -r '.export_table | "\(.audited) \(.etab_state)"' "$OUT")"
check_eq "no drift between the etab and the file it was written from" "[]" \
	"$(jq -c '.exports_drift' "$OUT")"
check_eq "each path of the etab is audited, from an etab line" \
	"$(cut -f1 "$etab" | sed 's/\\040/ /g' | sort -u)" \
	"$(jq -r '.exports[] | select(.export.file == "'"$etab"'") | .export.path' "$OUT" | sort -u)"

sed 's|^/srv/f 127.0.0.1(nordirplus,|/srv/f 127.0.0.1(|' "$exports" >"$TMP/edited"
run audit -q --json --etab "$etab" --exports "$TMP/edited" --mountinfo "$mountinfo"
check_eq "nordirplus removed from the file is the one difference" \
	"options_differ /srv/f 127.0.0.1 rdirplus=rdirplus/nordirplus" \
	"$(jq -r '.exports_drift[] | "\(.kind) \(.path) \(.client) " + ([.differences[] | "\(.option)=\(.files)/\(.in_effect)"] | join(" "))' "$OUT")"
