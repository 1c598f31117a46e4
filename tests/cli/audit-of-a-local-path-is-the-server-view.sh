#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# A path that is not on an NFS mount is audited with the export model: its
# JSON says "view": "server", with none of the client view's keys (those are
# proven on real NFS clients in tests/vm/scenarios/audit-on-client.sh).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$TMP/local
mkdir "$dir"
touch "$dir/f"
run audit -q --json --exports /dev/null "$dir"
[ "$RC" -eq 0 ] || fail "exit status $RC: $(cat "$ERR")"
view=$(jq -r '.exports[0].view' "$OUT")
[ "$view" = server ] || fail "view is $view, not server"
if jq -e '.exports[0] | has("client_advice") or has("cannot_tell")' "$OUT" >/dev/null; then
	fail "client view keys in a server view: $(cat "$OUT")"
fi
