#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 36: the autofs direct-map entry of audit's client advice (an NFS
# client that shows subvolumes as plain directories; audit_client.c driven
# by client-advice.c, as a real client view needs NFS) is read back by
# Debian 12's automount (autofs-oracle.c): one entry, for the client's
# mount point, mounting it and exactly each subvolume not refused from
# "srv:" and its server path; each refused one is said after it with its
# reason.  The names are the suggest test's: '$' and '${', '&', ':', '#',
# backslashes, quotes, blanks, a leading '-', bytes that are not UTF-8.  An
# export whose own server path has a blank gets no entry, only the reason.
source "$(dirname -- "$0")/../root/lib.sh"
command -v perl >/dev/null || skip_or_fail "needs perl"
[[ -n ${CLIENT_ADVICE:-} && -x $CLIENT_ADVICE ]] || {
	fail "CLIENT_ADVICE is not an executable: ${CLIENT_ADVICE:-(unset)}"
	exit 1
}
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
oracle_rc=0
"$ROOT_TESTS_DIR/../root-suggest/autofs-oracle.sh" "${AUTOFS_ORACLE_WORK:?}" "$OUT/oracle" \
	>"$OUT/oracle.log" 2>&1 || oracle_rc=$?
((oracle_rc == 0)) || skip_or_fail "cannot build the autofs oracle: $(tail -n 3 "$OUT/oracle.log")"

server='/srv/e$x:&#'
client='/mnt/cl ient'
names=(
	plain 'a${x' 'dol$HOME' 'b${HOME}c' 'colon:x' 'amp&x' 'hash#mark'
	'back\slash' 'ends-in-backslash\' '..\057..' 'dq"uote' "sq'uote"
	'sp ace' 'trailing space ' 'ends blank /nested' 'x -opt' '-opt' 'pct%d'
	$'bad\xff\xc3utf8' $'caf\xc3\xa9' $'tab\there' $'new\nline'
)
refused=('dq"uote' 'ends blank /nested' 'x -opt' $'tab\there' $'new\nline')
is_refused() {
	local r
	for r in "${refused[@]}"; do
		[[ $1 == "$r" ]] && return 0
	done
	return 1
}
# shown: NUL-ended fields as the oracle prints them (blank, control, not
# ASCII and backslash as \ooo), one a line.
shown() {
	perl -0 -ne 'chomp; s/([\x00-\x20\x7f-\xff\\])/sprintf("\\%03o", ord $1)/ge; print "$_\n"'
}
# advice SERVER_PATH: the client advice for srv:SERVER_PATH on $client
# with every name below it, into $OUT/advice; its autofs lines into
# $OUT/autofs (the entry, then what was not written).
advice() {
	local name paths=()
	for name in "${names[@]}"; do
		paths+=("$client/$name")
	done
	"$CLIENT_ADVICE" "srv:$1" "$client" rw,vers=4.2 "${paths[@]}" >"$OUT/advice" ||
		fail "client-advice failed"
	awk '/^  or an autofs direct-map entry/ { on = 1; next } on && /^    / { sub(/^    /, ""); print; next } on { exit }' \
		"$OUT/advice" >"$OUT/autofs"
}

advice "$server"
grep -v '^# not written: ' "$OUT/autofs" >"$OUT/map" || true
check_eq "one entry line" 1 "$(wc -l <"$OUT/map")"
LD_LIBRARY_PATH=$AUTOFS_ORACLE_WORK/autofs-lib "$OUT/oracle" "$AUTOFS_ORACLE_WORK/autofs-lib" \
	"$OUT/map" >"$OUT/read" 2>"$OUT/read.err" || fail "the oracle failed: $(cat "$OUT/read.err")"
check_eq "automount reads one entry, for the client's mount point" \
	"entry $(printf '%s\0' "$client" | shown)" "$(grep -v '^mount ' "$OUT/read" || true)"
{
	printf 'mount %s\tsrv:%s\n' "$(printf '%s\0' "$client" | shown)" "$(printf '%s\0' "$server" | shown)"
	for name in "${names[@]}"; do
		is_refused "$name" && continue
		printf 'mount %s\tsrv:%s\n' "$(printf '%s\0' "$client/$name" | shown)" \
			"$(printf '%s\0' "$server/$name" | shown)"
	done
} | sort >"$OUT/expected"
{ grep '^mount ' "$OUT/read" || true; } | sort >"$OUT/mounts"
check_files_eq "automount mounts exactly the mount point and the names not refused" \
	"$OUT/expected" "$OUT/mounts"
for name in "${refused[@]}"; do
	printf '%s\0' "$client/$name"
done | perl -0 -ne 'chomp; s/([\x00-\x1f\x7f\\])/sprintf("\\%03o", ord $1)/ge; print "$_\n"' |
	sort >"$OUT/refused.expected"
sed -n 's/^# not written: \(.*\): an autofs(5) map cannot carry .*$/\1/p' "$OUT/autofs" | sort >"$OUT/refused"
check_files_eq "the names refused, each with its reason" "$OUT/refused.expected" "$OUT/refused"

# 120 subvolumes of 100-byte names: more than automount reads of an entry
# (16384 bytes): the entry is read, and what it mounts and what is said to
# be left out for that are together every subvolume, once each.
long=$(printf 'x%.0s' {1..96})
names=()
for i in $(seq -w 1 120); do
	names+=("$i-$long")
done
advice "$server"
grep -v '^# not written: ' "$OUT/autofs" >"$OUT/map" || true
LD_LIBRARY_PATH=$AUTOFS_ORACLE_WORK/autofs-lib "$OUT/oracle" "$AUTOFS_ORACLE_WORK/autofs-lib" \
	"$OUT/map" >"$OUT/read" 2>"$OUT/read.err" || fail "the oracle failed: $(cat "$OUT/read.err")"
check_eq "long: automount reads the one entry without error" \
	"entry $(printf '%s\0' "$client" | shown)" "$(grep -v '^mount ' "$OUT/read" || true)"
{
	{ grep '^mount ' "$OUT/read" || true; } | cut -f1 | sed 's/^mount //'
	sed -n 's/^# not written: \(.*\): an autofs(5) map entry is at most 16384 bytes.*$/\1/p' "$OUT/autofs" |
		tee "$OUT/long.refused" | perl -pe 's/ /\\040/g'
} | sort >"$OUT/long.both"
for name in "${names[@]}"; do
	printf '%s\0' "$client/$name"
done | { printf '%s\0' "$client"; cat; } | shown | sort >"$OUT/long.all"
check_files_eq "long: mounted and left out are every subvolume, once each" "$OUT/long.all" "$OUT/long.both"
(($(wc -l <"$OUT/long.refused") > 0)) || fail "long: nothing left out: the entry is not too long"

advice '/srv/sp ace'
check_eq "an export path with a blank: no entry, its reason" \
	"# not written: an autofs(5) map cannot carry a blank in the export's own path" \
	"$(sed 's/: automount reads.*//' "$OUT/autofs")"
finish
