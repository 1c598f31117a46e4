#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --suggest --server NAME --client-dir DIR writes the client blocks
# with them, exactly as suggest does; without --suggest, and with a server
# name that cannot go into an fstab field, they are usage errors.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

client=(--server nfs1.example --client-dir /nfs/fex)
"$BTRFS_INO" audit -q --suggest "${client[@]}" --exports "$EXPORTS" "$FEX" \
	>"$OUT/audit" 2>"$OUT/audit.err" || true
for block in client-fstab autofs; do
	format_output "$block" "${client[@]}"
	tail -n +2 -- "$OUT/format-$block" >"$OUT/$block.expected"
	grep -q '^nfs1\.example:\|[[:space:]]nfs1\.example:' "$OUT/$block.expected" ||
		fail "$block: suggest did not use --server: $(head -n 12 "$OUT/$block.expected")"
	grep -q '/nfs/fex' "$OUT/$block.expected" ||
		fail "$block: suggest did not use --client-dir"
	block_of_report "$OUT/audit" "$block" >"$OUT/$block.actual"
	check_files_eq "$block in audit --suggest ${client[*]}" "$OUT/$block.expected" "$OUT/$block.actual"
done

rc=0
"$BTRFS_INO" audit -q "${client[@]}" --exports "$EXPORTS" "$FEX" >/dev/null 2>"$OUT/no-suggest.err" || rc=$?
check_eq "--server without --suggest: exit status" 2 "$rc"
check_eq "--server without --suggest: message" \
	"btrfs-ino: --server and --client-dir go with --suggest" "$(head -n 1 "$OUT/no-suggest.err")"
rc=0
"$BTRFS_INO" audit -q --suggest --server 'two words' "$FEX" >/dev/null 2>"$OUT/bad-server.err" || rc=$?
check_eq "a server name with a blank: exit status" 2 "$rc"
check_eq "a server name with a blank: message" \
	"btrfs-ino: bad server name 'two words'" "$(head -n 1 "$OUT/bad-server.err")"
finish
