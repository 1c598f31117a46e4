#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A path of the exports file that does not exist on this machine (an offline
# server's export) is reported as exported, with its line, and absent: in
# JSON "exported": true, "absent": true and the ENOENT error; in text the
# verdict line names the exports line and "absent on this machine", the
# tree says it, and the error is on stderr once.  Exit 2: nothing was audited.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

gone=$TMP/not-here/export
printf '# offline server\n%s client(rw,crossmnt)\n' "$gone" >"$TMP/exports"
run audit --json --exports "$TMP/exports" "$gone"
check_eq "json exit status" 2 "$RC"
check_eq "json: path exported absent line client options crossmnt errno" \
	"$gone true true 2 client rw,crossmnt true 2" \
	"$(jq -r '.exports[0] | "\(.path) \(.exported) \(.absent) \(.export.line) \(.export.client) \(.export.options) \(.crossmnt) \(.error.errno)"' "$OUT")"

run audit --exports "$TMP/exports" "$gone"
check_eq "text exit status" 2 "$RC"
check_eq "text: the first line, the verdict" \
	"$gone: not audited: absent on this machine, exported to client(rw,crossmnt) in $TMP/exports:2" \
	"$(head -n 1 "$OUT")"
grep -qF "not audited: exported, absent on this machine" "$OUT" ||
	fail "the tree does not say exported and absent: $(cat "$OUT")"
grep -qF "not exported" "$OUT" && fail "text says not exported: $(cat "$OUT")"
check_eq "stderr: the error, once" \
	"btrfs-ino: $gone: Could not stat: No such file or directory" "$(cat "$ERR")"
true
