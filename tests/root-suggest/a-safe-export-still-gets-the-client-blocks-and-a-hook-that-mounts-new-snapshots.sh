#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Once the server is fixed (the suggested fstab mounted, btrfs-ino mount
# run, crossmnt exported: audit says safe), the clients' side can still be
# had: suggest PATH prints the client blocks after its "safe" note;
# --format client-fstab prints a line per subvolume that findmnt --verify
# accepts, --format autofs its entry, each naming every subvolume of
# `btrfs subvolume list` once; --format snapshot-hook writes the hook, and
# running it after a new snapshot mounts that snapshot on its own path
# (findmnt).  A plain directory has no client block to write: --format
# client-fstab says so on stderr and exits 2, never an empty success.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
command -v unshare >/dev/null || skip_or_fail "needs unshare"

suggest fstab --exports "$EXPORTS" --format server-fstab "$FEX"
suggest crossmnt --exports "$EXPORTS" --format exports "$FEX"
config_lines "$OUT/crossmnt" >"$OUT/exports.fixed"
client=$WORK/client

# In the namespace where the server is fixed: each output into $OUT.
# shellcheck disable=SC2016 # expanded by the inner bash
apply_all "$OUT/exports.fixed" bash -c '
	b=$1 out=$2 exports=$3 fex=$4 client=$5
	"$b" audit -q --exports "$exports" "$fex" >"$out/audit" 2>&1
	echo $? >"$out/audit.rc"
	"$b" suggest -q --exports "$exports" --server nfs1 --client-dir "$client" "$fex" \
		>"$out/full" 2>"$out/full.err"
	echo $? >"$out/full.rc"
	for f in client-fstab autofs snapshot-hook; do
		"$b" suggest -q --exports "$exports" --server nfs1 --client-dir "$client" \
			--format "$f" "$fex" >"$out/$f" 2>"$out/$f.err"
		echo $? >"$out/$f.rc"
	done
	btrfs -q subvolume snapshot "$fex/spool" "$fex/spool/.snapshot/new" >/dev/null
	PATH=$(dirname -- "$b"):$PATH sh "$out/snapshot-hook" >"$out/hook.out" 2>&1
	echo $? >"$out/hook.rc"
	findmnt -n -o TARGET --mountpoint "$fex/spool/.snapshot/new" >"$out/new-mount" || true
' bash "$BTRFS_INO" "$OUT" "$OUT/exports.fixed" "$FEX" "$client"

check_eq "audit of the fixed server: exit status" 0 "$(cat "$OUT/audit.rc")"
grep -qxF -- "$FEX: safe" "$OUT/audit" || fail "the fixed server is not safe: $(cat "$OUT/audit")"

{
	printf 'nfs1:%s %s\n' "$FEX" "$client"
	expected_subvols | while IFS=$'\t' read -r _ path; do
		[[ $path == "$FEX/spool/.snapshot/new" ]] && continue
		printf 'nfs1:%s %s%s\n' "$path" "$client" "${path#"$FEX"}"
	done
} | sort >"$OUT/expected"

check_eq "suggest PATH: exit status" 0 "$(cat "$OUT/full.rc")"
grep -qF "$FEX: safe for NFS clients; the server needs no change," "$OUT/full" ||
	fail "suggest PATH does not say safe: $(head -3 "$OUT/full")"
block_of_report "$OUT/full" client-fstab >"$OUT/full-client-fstab"
config_lines "$OUT/full-client-fstab" | awk '{ print $1, $2 }' | sort >"$OUT/full-actual"
check_files_eq "suggest PATH: the client fstab block" "$OUT/expected" "$OUT/full-actual"
check_eq "suggest PATH: no server block" "" "$(grep -E '^## (1|2)' "$OUT/full" || true)"

check_eq "--format client-fstab: exit status" 0 "$(cat "$OUT/client-fstab.rc")"
config_lines "$OUT/client-fstab" | awk '{ print $1, $2 }' | sort >"$OUT/actual"
check_files_eq "--format client-fstab: one line per subvolume" "$OUT/expected" "$OUT/actual"
awk '{ print $2 }' "$OUT/actual" | xargs mkdir -p --
findmnt --verify --tab-file "$OUT/client-fstab" >"$OUT/verify" 2>&1 ||
	fail "findmnt --verify rejects it: $(cat "$OUT/verify")"

check_eq "--format autofs: exit status" 0 "$(cat "$OUT/autofs.rc")"
config_lines "$OUT/autofs" | sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' >"$OUT/entry"
read -r -a words <"$OUT/entry"
check_eq "--format autofs: key" "$client" "${words[0]:-}"
for ((i = 2; i < ${#words[@]}; i += 2)); do
	printf '%s %s%s\n' "${words[i + 1]:-}" "$client" "${words[i]%/}"
done | sort >"$OUT/autofs.actual"
check_files_eq "--format autofs: one offset per subvolume" "$OUT/expected" "$OUT/autofs.actual"

check_eq "--format snapshot-hook: exit status" 0 "$(cat "$OUT/snapshot-hook.rc")"
check_eq "the hook's first line" "#!/bin/sh" "$(head -1 "$OUT/snapshot-hook")"
check_eq "the hook: exit status" 0 "$(cat "$OUT/hook.rc")"
check_eq "the hook mounted the new snapshot" "$FEX/spool/.snapshot/new" "$(cat "$OUT/new-mount")"

plain=$WORK/plain
mkdir -p -- "$plain/a"
suggest plain --exports "$EXPORTS" --format client-fstab "$plain"
check_suggest_rc plain 2
check_eq "plain directory: stdout" "" "$(cat "$OUT/plain")"
grep -qF -- "--format client-fstab" "$OUT/plain.err" || fail "no reason on stderr: $(cat "$OUT/plain.err")"
finish
