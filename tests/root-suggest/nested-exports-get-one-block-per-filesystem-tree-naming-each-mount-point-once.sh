#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Nested exports, as real files have them (tests/data/exports/collected/
# npacore-hpc-env.exports: /cm/node-installer ro and
# /cm/node-installer/certificates rw, both to 10.141.0.0/16): $EXP (ro),
# $EXP/inner (rw, same client) and the subvolume $EXP/a (another client)
# on one btrfs, subvolumes $EXP/a, $EXP/inner/b, $EXP/inner/b/c.  suggest
# (every export) gives one block per filesystem tree, each mount point once
# (btrfs subvolume list), judged by the real readers:
#  - server-fstab: systemd-fstab-generator (SYSTEMD_FSTAB) makes every unit
#    without "Duplicate entry"; findmnt --verify has no "wrong order";
#  - client-fstab: findmnt --verify, each mount point once;
#  - autofs: Debian 12's automount reads one entry, no key below another,
#    each subvolume mounted once;
#  - exports-nohide: nfs-utils' getexportent() reads it to the end, each
#    path and client once, and a subvolume below inner gets inner's rw;
#  - mount-units: one unit per subvolume; the hook: one;
#  - --diff applies with patch: crossmnt on the lines of $EXP and
#    $EXP/inner (subvolumes below them), $EXP/a's line as it was.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_scratch
oracle_rc=0
"$SUGGEST_TESTS_DIR/../exports-diff/nfs-utils-oracle.sh" "${EXPORTS_DIFF_WORK:?}" \
	"$OUT/nfs-oracle" >"$OUT/nfs-oracle.log" 2>&1 || oracle_rc=$?
((oracle_rc == 0)) || skip_or_fail "cannot build nfs-utils' getexportent: $(tail -n 3 "$OUT/nfs-oracle.log")"
"$SUGGEST_TESTS_DIR/autofs-oracle.sh" "${AUTOFS_ORACLE_WORK:?}" "$OUT/autofs-oracle" \
	>"$OUT/autofs-oracle.log" 2>&1 || oracle_rc=$?
((oracle_rc == 0)) || skip_or_fail "cannot build the autofs oracle: $(tail -n 3 "$OUT/autofs-oracle.log")"
generator=/lib/systemd/system-generators/systemd-fstab-generator
[[ -x $generator ]] || skip_or_fail "needs $generator"

setup_nested_exports
check_eq "the fixture's subvolumes" 3 "$(wc -l <"$OUT/subvols")"

for f in "${BLOCKS[@]}"; do
	suggest "$f" --exports "$EXPORTS" --server srv --format "$f"
	check_suggest_rc "$f" 0
done

# server-fstab
config_lines "$OUT/server-fstab" | awk '{ print $2 }' | sort >"$OUT/fstab.targets"
check_files_eq "server-fstab: each subvolume once" "$OUT/subvols" "$OUT/fstab.targets"
mkdir -- "$OUT/gen" "$OUT/gen.early" "$OUT/gen.late"
SYSTEMD_FSTAB=$OUT/server-fstab "$generator" "$OUT/gen" "$OUT/gen.early" "$OUT/gen.late" \
	>"$OUT/gen.log" 2>&1 || fail "systemd-fstab-generator: $(cat "$OUT/gen.log")"
check_eq "systemd-fstab-generator: units" 3 "$(find "$OUT/gen" -maxdepth 1 -name '*.mount' | wc -l)"
findmnt --verify --tab-file "$OUT/server-fstab" >"$OUT/verify" 2>&1 || true
check_eq "server-fstab: wrong order" "" "$(grep -i 'wrong order' "$OUT/verify" || true)"

# client-fstab
config_lines "$OUT/client-fstab" | awk '{ print $2 }' >"$OUT/client.targets"
{ printf '%s\n' "$EXP"; cat "$OUT/subvols"; } | sort >"$OUT/client.expected"
sort "$OUT/client.targets" | check_files_eq "client-fstab: each mount point once" "$OUT/client.expected" /dev/stdin
findmnt --verify --tab-file "$OUT/client-fstab" >"$OUT/cverify" 2>&1 || true
check_eq "client-fstab: wrong order" "" "$(grep -i 'wrong order' "$OUT/cverify" || true)"

# autofs, read by Debian's automount
LD_LIBRARY_PATH=$AUTOFS_ORACLE_WORK/autofs-lib "$OUT/autofs-oracle" \
	"$AUTOFS_ORACLE_WORK/autofs-lib" "$OUT/autofs" >"$OUT/autofs.read"
check_eq "autofs: one entry" "entry $EXP" "$(grep '^entry ' "$OUT/autofs.read")"
check_eq "autofs: no error" "" "$(grep '^error ' "$OUT/autofs.read" || true)"
grep '^mount ' "$OUT/autofs.read" | cut -f1 | sed 's/^mount //' | sort >"$OUT/autofs.targets"
check_files_eq "autofs: each mount point once" "$OUT/client.expected" "$OUT/autofs.targets"

# exports-nohide, read by nfs-utils
"$OUT/nfs-oracle" "$OUT/exports-nohide" >"$OUT/nohide.read"
check_eq "exports-nohide: getexportent reads to the end" "end eof" "$(tail -n 1 "$OUT/nohide.read")"
check_eq "exports-nohide: no path and client twice" "" \
	"$(grep -v -e '^file ' -e '^end ' "$OUT/nohide.read" | cut -f1,2 | sort | uniq -d)"
check_eq "exports-nohide: inner/b gets inner's rw" "rw" \
	"$(awk -F '\t' -v p="$EXP/inner/b" '$1 == p && $2 == "127.0.0.1" { print $3 }' "$OUT/nohide.read" |
		tr ',' '\n' | grep -x -e rw -e ro)"

# mount units and the hook
check_eq "mount-units: one per subvolume" 3 "$(grep -c '^Where=' "$OUT/mount-units")"
check_eq "snapshot-hook: one hook" 1 "$(grep -c '^exec btrfs-ino mount' "$OUT/snapshot-hook")"

# --diff: patch applies it, each line of the three exports gets crossmnt.
FSTAB=$OUT/fstab
: >"$FSTAB"
cp -- "$EXPORTS" "$OUT/exports.orig"
suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --server srv --diff
check_suggest_rc diff 1
(cd / && patch -s -p0 --dry-run <"$OUT/diff") >"$OUT/patch.log" 2>&1 ||
	fail "patch rejects the diff: $(cat "$OUT/patch.log")"
(cd / && patch -s -p0 <"$OUT/diff") >/dev/null 2>&1
"$OUT/nfs-oracle" "$EXPORTS" >"$OUT/exports.read"
check_eq "--diff: crossmnt on the lines with subvolumes below them" \
	"$EXP 1|$EXP/a 0|$EXP/inner 1" \
	"$(grep -v -e '^file ' -e '^end ' "$OUT/exports.read" |
		awk -F '\t' '{ print $1, ($3 ~ /(^|,)crossmnt(,|$)/) }' | sort | paste -sd '|')"
config_lines "$FSTAB" | awk '{ print $2 }' | sort >"$OUT/diff.targets"
check_files_eq "--diff: each subvolume once in the fstab" "$OUT/subvols" "$OUT/diff.targets"
finish
