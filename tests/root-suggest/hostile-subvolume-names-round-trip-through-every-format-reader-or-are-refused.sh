#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Subvolumes whose names anyone who may create one can choose (newline, tab,
# blank, backslash, a literal "\057", '#', ',', '=', '%', bytes that are not
# UTF-8, a leading '-', a trailing blank or backslash, and issue 28's two
# attacks: a unit [Install] section and an export of "/") go through every
# suggest format, and every written line is read back by the real reader of
# its format: the paths read back are exactly the subvolumes not refused,
# and each refused one has its reason in the block ("# not written: PATH:
# ...") and on stderr.  Which format refuses which name is fixed here, from
# the formats' rules (btrfs-ino(1), suggest):
#  - server fstab, client fstab, --diff and the snapshot hook: none; read by
#    libmount (fstab-targets), the hook's mounts from the mount table;
#  - exports, exports-nohide: a newline, a backslash before three octal digits below 400;
#    read by nfs-utils 2.6.2's own getexportent() (the exports-diff oracle);
#  - mount units (--output-dir): control bytes, bytes not UTF-8, a trailing
#    blank or backslash; systemd-analyze verify accepts the files, and the
#    unit names unescaped (systemd-escape) are the paths;
#  - autofs: control bytes (and '"', a blank before '/' or '-', none here);
#    read by Debian 12's automount's own code (autofs-oracle.c).
source "$(dirname -- "$0")/suggest-lib.sh"
for tool in systemd-analyze systemd-escape patch unshare perl; do
	command -v "$tool" >/dev/null || skip_or_fail "needs $tool"
done
[[ -n ${FSTAB_TARGETS:-} && -x $FSTAB_TARGETS ]] || {
	fail "FSTAB_TARGETS is not an executable: ${FSTAB_TARGETS:-(unset)}"
	exit 1
}
setup_scratch
oracle_rc=0
"$SUGGEST_TESTS_DIR/../exports-diff/nfs-utils-oracle.sh" "${EXPORTS_DIFF_WORK:?}" \
	"$OUT/oracle" >"$OUT/oracle.log" 2>&1 || oracle_rc=$?
((oracle_rc == 0)) || skip_or_fail "cannot build nfs-utils' getexportent: $(tail -n 3 "$OUT/oracle.log")"
"$SUGGEST_TESTS_DIR/autofs-oracle.sh" "${AUTOFS_ORACLE_WORK:?}" "$OUT/autofs-oracle" \
	>"$OUT/autofs-oracle.log" 2>&1 || oracle_rc=$?
((oracle_rc == 0)) || skip_or_fail "cannot build the autofs oracle: $(tail -n 3 "$OUT/autofs-oracle.log")"
mount_loop btrfs 256M "$WORK/mnt"
FEX=$WORK/mnt/fex
mkdir -- "$FEX"
EXPORTS=$OUT/exports
printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check)" >"$EXPORTS"

names=(
	plain $'new\nline' $'tab\there' 'sp ace' 'back\slash' '..\057..\057..'
	$'j\n[Install]\nAlso=debug-shell.service\nX-z=' 'hash#mark' 'com,ma'
	'eq=ual' 'per%cent' $'bad\xff\xc3utf8' '-leading-dash' 'trailing space '
	"ends-in-backslash\\"
)
refused_by_exports=($'new\nline' '..\057..\057..' $'j\n[Install]\nAlso=debug-shell.service\nX-z=')
refused_by_units=($'new\nline' $'tab\there' $'j\n[Install]\nAlso=debug-shell.service\nX-z='
	$'bad\xff\xc3utf8' 'trailing space ' "ends-in-backslash\\")
refused_by_autofs=($'new\nline' $'tab\there' $'j\n[Install]\nAlso=debug-shell.service\nX-z=')
for name in "${names[@]}"; do
	btrfs -q subvolume create -- "$FEX/$name" >/dev/null
done

# shown: NUL-ended paths on stdin as sorted lines, each byte that is blank,
# control, not ASCII or a backslash as \ooo (how print.h shows them).
shown() {
	perl -0 -ne 'chomp; s/([\x00-\x20\x7f-\xff\\])/sprintf("\\%03o", ord $1)/ge; print "$_\n"' | sort
}
# paths NAME...: "$FEX/NAME" of each, NUL-ended.
paths() {
	local name
	for name in "$@"; do
		printf '%s\0' "$FEX/$name"
	done
}
# kept NAME...: the paths of the names not among the refused NAMEs given.
kept() {
	local name r skip
	for name in "${names[@]}"; do
		skip=0
		for r in "$@"; do
			[[ $name == "$r" ]] && skip=1
		done
		((skip)) || printf '%s\0' "$FEX/$name"
	done
}
# in_comment: NUL-ended paths as "# not written: PATH" shows them (control
# bytes, DEL and backslash as \ooo), one a line, sorted.
in_comment() {
	perl -0 -ne 'chomp; s/([\x00-\x1f\x7f\\])/sprintf("\\%03o", ord $1)/ge; print "$_\n"' | sort
}
# check_refusals WHAT FILE ERRFILE NAME...: FILE says "# not written: PATH:
# REASON" for exactly the NAMEs' paths, ERRFILE "btrfs-ino: PATH: not
# written: REASON" for each.
check_refusals() {
	local what=$1 file=$2 err=$3
	shift 3
	paths "$@" | in_comment >"$OUT/$what.refused.expected"
	sed -n 's/^#\{0,1\}# not written: \(.*\): [^:]*cannot carry .*$/\1/p' "$file" | sort -u \
		>"$OUT/$what.refused"
	check_files_eq "$what: the names refused, each with its reason" \
		"$OUT/$what.refused.expected" "$OUT/$what.refused"
	sed -n 's/^btrfs-ino: \(.*\): not written: .*cannot carry .*$/\1/p' "$err" | sort -u \
		>"$OUT/$what.warned"
	check_files_eq "$what: a warning on stderr for each name refused" \
		"$OUT/$what.refused.expected" "$OUT/$what.warned"
}
# check_fstab WHAT FILE EXPECTED_SHOWN: libmount reads FILE without error,
# its targets are exactly EXPECTED_SHOWN.
check_fstab() {
	local rc=0
	"$FSTAB_TARGETS" "$2" >"$OUT/$1.targets" 2>"$OUT/$1.targets.err" || rc=$?
	check_eq "$1: libmount parses every line" "0 " "$rc $(cat "$OUT/$1.targets.err")"
	shown <"$OUT/$1.targets" >"$OUT/$1.targets.shown"
	check_files_eq "$1: libmount reads back exactly the paths" "$3" "$OUT/$1.targets.shown"
}
kept >"$OUT/all"
shown <"$OUT/all" >"$OUT/all.shown"
{ printf '%s\0' "$FEX"; cat "$OUT/all"; } | shown >"$OUT/fex-and-all.shown"

# Server fstab: every name, through libmount.
format_output server-fstab
config_lines "$OUT/format-server-fstab" >"$OUT/server.fstab"
check_fstab server-fstab "$OUT/server.fstab" "$OUT/all.shown"
check_refusals server-fstab "$OUT/format-server-fstab" "$OUT/format-server-fstab.err"

# Client fstab: the export and every name.
format_output client-fstab --server srv
config_lines "$OUT/format-client-fstab" >"$OUT/client.fstab"
check_fstab client-fstab "$OUT/client.fstab" "$OUT/fex-and-all.shown"
check_refusals client-fstab "$OUT/format-client-fstab" "$OUT/format-client-fstab.err"

# --diff: the fstab as patched.
FSTAB=$OUT/diff.fstab
: >"$FSTAB"
suggest diff --exports "$EXPORTS" --fstab "$FSTAB" --diff --format server-fstab "$FEX"
check_suggest_rc diff 1
patch -s "$FSTAB" <"$OUT/diff" >"$OUT/patch.log" 2>&1 || fail "patch: $(cat "$OUT/patch.log")"
check_fstab diff "$FSTAB" "$OUT/all.shown"

# The snapshot hook, run on every subvolume in a mount namespace of its own:
# it names no subvolume (it runs btrfs-ino mount on the export, found on
# PATH), mounts each on its own path (the namespace's mount table, read back
# by libmount, shows exactly them) and appends to no file.
format_output snapshot-hook
sh -n "$OUT/format-snapshot-hook" || fail "sh -n rejects the hook"
check_refusals snapshot-hook "$OUT/format-snapshot-hook" "$OUT/format-snapshot-hook.err"
check_eq "the hook appends to no file" 0 "$(grep -c '>>' "$OUT/format-snapshot-hook" || true)"
mapfile -d '' -t all_paths <"$OUT/all"
mkdir -- "$OUT/bin"
ln -s -- "$BTRFS_INO" "$OUT/bin/btrfs-ino"
# shellcheck disable=SC2016 # expanded by the inner sh
PATH=$OUT/bin:$PATH BLKID_FILE=/dev/null unshare -m --propagation private -- sh -c 'sh "$0" "$@" && cat /proc/self/mounts' \
	"$OUT/format-snapshot-hook" "${all_paths[@]}" >"$OUT/hook.mounts" 2>"$OUT/hook.log" ||
	fail "the hook failed: $(head -c 500 "$OUT/hook.log")"
awk -v fex="$FEX" 'index($2, fex "/") == 1' "$OUT/hook.mounts" >"$OUT/hook.fstab"
check_fstab snapshot-hook "$OUT/hook.fstab" "$OUT/all.shown"

# Exports: nfs-utils' getexportent() reads every line written.
format_output exports-nohide
"$OUT/oracle" "$OUT/format-exports-nohide" >"$OUT/nohide.read"
check_eq "exports-nohide: getexportent reads to the end" "end eof" "$(tail -n 1 "$OUT/nohide.read")"
{ printf '%s\0' "$FEX"; kept "${refused_by_exports[@]}"; } | shown >"$OUT/nohide.expected"
grep -v -e '^file ' -e '^end ' "$OUT/nohide.read" | cut -f1 | sort >"$OUT/nohide.paths"
check_files_eq "exports-nohide: getexportent reads back exactly the paths not refused" \
	"$OUT/nohide.expected" "$OUT/nohide.paths"
check_refusals exports-nohide "$OUT/format-exports-nohide" "$OUT/format-exports-nohide.err" \
	"${refused_by_exports[@]}"
format_output exports
"$OUT/oracle" "$OUT/format-exports" >"$OUT/exports.read"
check_eq "exports: getexportent reads the export's line, with crossmnt" \
	"$(printf '%s\0' "$FEX" | shown)|rw,crossmnt|end eof" \
	"$(grep -v '^file ' "$OUT/exports.read" | cut -f1,3 | paste -sd '|' | tr '\t' '|')"

# Mount units: the files --output-dir writes, verified by systemd.
format_output mount-units --output-dir "$OUT/units"
check_refusals mount-units "$OUT/format-mount-units" "$OUT/format-mount-units.err" \
	"${refused_by_units[@]}"
for unit in "$OUT/units"/*.mount; do
	[[ -e $unit ]] || continue
	printf '%s\0' "$(systemd-escape --unescape --path -- "$(basename -- "$unit" .mount)")"
done | shown >"$OUT/units.paths"
kept "${refused_by_units[@]}" | shown >"$OUT/units.expected"
check_files_eq "mount units: one per path not refused, named for it" \
	"$OUT/units.expected" "$OUT/units.paths"
(cd "$OUT/units" && systemd-analyze verify --man=no ./*.mount) >"$OUT/verify" 2>&1 ||
	fail "systemd-analyze verify: $(head -c 2000 "$OUT/verify")"
check_eq "mount units: one [Install] section each, WantedBy= only" \
	"$(find "$OUT/units" -name '*.mount' | wc -l)" \
	"$(cat "$OUT/units"/*.mount | grep -c '^\[Install\]$')"
check_eq "mount units: no Also= anywhere" "" "$(cat "$OUT/units"/*.mount | grep -a '^Also=' || true)"

# Autofs: Debian 12's automount reads the block (autofs-oracle.c): one
# entry, for the export, mounting it and exactly the names not refused.
format_output autofs --server srv
check_refusals autofs "$OUT/format-autofs" "$OUT/format-autofs.err" "${refused_by_autofs[@]}"
LD_LIBRARY_PATH=$AUTOFS_ORACLE_WORK/autofs-lib "$OUT/autofs-oracle" \
	"$AUTOFS_ORACLE_WORK/autofs-lib" "$OUT/format-autofs" >"$OUT/autofs.read" 2>"$OUT/autofs.err" ||
	fail "autofs: the oracle failed: $(cat "$OUT/autofs.err")"
check_eq "autofs: automount reads one entry, for the export" \
	"entry $(printf '%s\0' "$FEX" | shown)" "$(grep -v '^mount ' "$OUT/autofs.read" || true)"
{ printf '%s\0' "$FEX"; kept "${refused_by_autofs[@]}"; } |
	perl -0 -ne 'chomp; s/([\x00-\x20\x7f-\xff\\])/sprintf("\\%03o", ord $1)/ge;
		print "mount $_\tsrv:$_\n"' | sort >"$OUT/autofs.expected"
{ grep '^mount ' "$OUT/autofs.read" || true; } | sort >"$OUT/autofs.mounts"
check_files_eq "autofs: automount mounts exactly the export and the paths not refused" \
	"$OUT/autofs.expected" "$OUT/autofs.mounts"
finish
