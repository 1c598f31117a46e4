#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The suggestion tells the truth about clients (#38): both client blocks
# recommend the client keeper to Linux clients of a server that rotates
# snapshots, as the command "btrfs-ino mount --watch --client DIR" (DIR
# the --client-dir, one sh word) and the unit btrfs-ino-client@INSTANCE
# .service, INSTANCE as systemd-escape --path names DIR; --json gives the
# same in "client_keeper".  The exports block says that a client crosses
# into a mount only when it traverses it (no claim that Linux clients
# just cross), and the report no longer asks for a client line per
# snapshot.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
client="$WORK/client dir-x"
unit="btrfs-ino-client@$(systemd-escape --path "$client").service"
quoted="'${client//\'/\'\\\'\'}'"

for f in client-fstab autofs; do
	suggest "$f" --exports "$EXPORTS" --format "$f" --server nfs1 --client-dir "$client" "$FEX"
	check_suggest_rc "$f" 0
	grep -qxF "#   btrfs-ino mount --watch --client $quoted" "$OUT/$f" ||
		fail "$f: no keeper command for $client: $(grep -i keeper "$OUT/$f")"
	grep -qxF "# or: systemctl enable --now $unit" "$OUT/$f" ||
		fail "$f: no unit $unit: $(grep -F 'systemctl' "$OUT/$f")"
	# The command line runs as printed: its last word is DIR.
	line=$(sed -n 's/^#   btrfs-ino mount --watch --client /x /p' "$OUT/$f")
	eval "set -- $line"
	check_eq "$f: the command's DIR, read by sh" "$client" "${2:-}"
done

suggest json --json --exports "$EXPORTS" --server nfs1 --client-dir "$client" "$FEX"
check_suggest_rc json 0
check_eq "JSON client_keeper" "$client|$unit" \
	"$(jq -r '.exports[0].client_keeper | "\(.dir)|\(.unit)"' "$OUT/json")"

suggest full --exports "$EXPORTS" "$FEX"
check_suggest_rc full 0
block_of_report "$OUT/full" exports >"$OUT/exports-block"
grep -qF "only when it traverses it" "$OUT/exports-block" ||
	fail "the exports block does not say when clients cross: $(cat "$OUT/exports-block")"
check_eq "no claim that Linux clients cross" "" "$(grep -F 'Linux clients do so' "$OUT/full" || true)"
check_eq "no client line per snapshot" "" "$(grep -F 'new mount line' "$OUT/full" || true)"
finish
