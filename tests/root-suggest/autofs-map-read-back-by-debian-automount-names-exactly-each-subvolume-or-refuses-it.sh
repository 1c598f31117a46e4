#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 36: subvolumes whose names automount's own expansion and quoting
# would change ('$' and '${', '&', ':' after the first ":/", '#',
# backslashes, quotes, blanks, a leading '-', bytes that are not UTF-8)
# go through suggest --format autofs, and the whole block is read back by
# Debian 12's automount (autofs-oracle.c: its libautofs.so and
# parse_sun.so, from the autofs package): the one entry's key is the
# export's client path and its mounts are exactly the export and each
# subvolume not refused, each on its client path from "srv:" and its server
# path; each refused one has its reason in the block and on stderr.  Which
# names are refused follows quote.h: a control byte or a '"' anywhere, a
# blank before '/' or '-' (a nested subvolume below a name ending in a
# blank), and for the export's own path also a blank or a backslash.  Run
# with the export at its own path, then with --client-dir, then with an
# export whose own name automount would read twice.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v perl >/dev/null || skip_or_fail "needs perl"
setup_scratch
oracle_rc=0
"$SUGGEST_TESTS_DIR/autofs-oracle.sh" "${AUTOFS_ORACLE_WORK:?}" "$OUT/oracle" \
	>"$OUT/oracle.log" 2>&1 || oracle_rc=$?
((oracle_rc == 0)) || skip_or_fail "cannot build the autofs oracle: $(tail -n 3 "$OUT/oracle.log")"
oracle() {
	LD_LIBRARY_PATH=$AUTOFS_ORACLE_WORK/autofs-lib "$OUT/oracle" \
		"$AUTOFS_ORACLE_WORK/autofs-lib" "$@"
}
mount_loop btrfs 256M "$WORK/mnt"

# The export's own name: '$', ':', '&' and '#' (carried, quoted).
FEX=$WORK/mnt/'fe$x:&#'
mkdir -- "$FEX"
EXPORTS=$OUT/exports
printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check)" >"$EXPORTS"

names=(
	plain 'a${x' 'dol$HOME' 'b${HOME}c' 'colon:x' 'amp&x' 'hash#mark'
	'back\slash' 'ends-in-backslash\' '..\057..' 'dq"uote' "sq'uote"
	'sp ace' 'trailing space ' 'ends blank ' 'ends blank /nested'
	'x -opt' '-opt' 'pct%d' $'bad\xff\xc3utf8' $'caf\xc3\xa9'
	$'tab\there' $'new\nline'
)
refused=('dq"uote' 'ends blank /nested' 'x -opt' $'tab\there' $'new\nline')
for name in "${names[@]}"; do
	btrfs -q subvolume create -- "$FEX/$name" >/dev/null
done

# shown: lines of NUL-ended fields on stdin, each byte that is blank,
# control, not ASCII or a backslash as \ooo (as the oracle prints them).
shown() {
	perl -0 -ne 'chomp; s/([\x00-\x20\x7f-\xff\\])/sprintf("\\%03o", ord $1)/ge; print "$_\n"'
}
# expected CLIENT_DIR: "mount CLIENT<TAB>srv:SERVER" of the export and each
# name not refused, sorted.
expected() {
	local dir=$1 name r skip
	{
		printf 'mount %s\t%s\n' "$(printf '%s\0' "$dir" | shown)" \
			"$(printf 'srv:%s\0' "$FEX" | shown)"
		for name in "${names[@]}"; do
			skip=0
			for r in "${refused[@]}"; do
				[[ $name == "$r" ]] && skip=1
			done
			((skip)) && continue
			printf 'mount %s\t%s\n' "$(printf '%s\0' "$dir/$name" | shown)" \
				"$(printf 'srv:%s\0' "$FEX/$name" | shown)"
		done
	} | sort
}
# in_comment: NUL-ended paths as "# not written: PATH" shows them, sorted.
in_comment() {
	perl -0 -ne 'chomp; s/([\x00-\x1f\x7f\\])/sprintf("\\%03o", ord $1)/ge; print "$_\n"' | sort
}
# check_read_back WHAT FILE KEY EXPECTED: the oracle reads one entry for KEY
# from FILE, no error, and exactly the mounts in EXPECTED.
check_read_back() {
	local what=$1 file=$2 key=$3 expected=$4
	oracle "$file" >"$OUT/$what.read" 2>"$OUT/$what.read.err" ||
		fail "$what: the oracle failed: $(cat "$OUT/$what.read.err")"
	check_eq "$what: automount reads one entry, for the client path" \
		"entry $(printf '%s\0' "$key" | shown)" "$(grep -v '^mount ' "$OUT/$what.read")"
	{ grep '^mount ' "$OUT/$what.read" || true; } | sort >"$OUT/$what.mounts"
	check_files_eq "$what: automount mounts exactly the export and the names not refused" \
		"$expected" "$OUT/$what.mounts"
}
# check_refused WHAT FILE ERRFILE NAME...: "# not written: PATH: ...cannot
# carry..." in FILE and "btrfs-ino: PATH: not written: ..." in ERRFILE for
# exactly the NAMEs.
check_refused() {
	local what=$1 file=$2 err=$3 name
	shift 3
	for name in "$@"; do
		printf '%s\0' "$FEX/$name"
	done | in_comment >"$OUT/$what.refused.expected"
	sed -n 's/^# not written: \(.*\): an autofs(5) map cannot carry .*$/\1/p' "$file" |
		sort >"$OUT/$what.refused"
	check_files_eq "$what: the names refused, each with its reason" \
		"$OUT/$what.refused.expected" "$OUT/$what.refused"
	sed -n 's/^btrfs-ino: \(.*\): not written: an autofs(5) map cannot carry .*$/\1/p' "$err" |
		sort >"$OUT/$what.warned"
	check_files_eq "$what: a warning on stderr for each name refused" \
		"$OUT/$what.refused.expected" "$OUT/$what.warned"
}

# The export on its own path.
format_output autofs --server srv
expected "$FEX" >"$OUT/own.expected"
check_read_back own "$OUT/format-autofs" "$FEX" "$OUT/own.expected"
check_refused own "$OUT/format-autofs" "$OUT/format-autofs.err" "${refused[@]}"

# --client-dir: keys and offsets on the client's path, locations the server's.
client=/mnt/'cl ient$'
suggest client --exports "$EXPORTS" --format autofs --server srv --client-dir "$client" "$FEX"
check_suggest_rc client 0
expected "$client" >"$OUT/client.expected"
check_read_back client "$OUT/client" "$client" "$OUT/client.expected"
check_refused client "$OUT/client" "$OUT/client.err" "${refused[@]}"

# An NFSv4 pseudo-root at the filesystem's top: the entry's locations are
# below it (vers=4), the commented NFSv3 entry after it has the server's
# paths; each read back, the second with its '#' taken away.
printf '%s\n' "$WORK/mnt 127.0.0.1(rw,fsid=0,no_subtree_check,crossmnt)" \
	"$FEX 127.0.0.1(rw,no_subtree_check)" >"$OUT/exports.v4"
suggest v4 --exports "$OUT/exports.v4" --format autofs --server srv "$FEX"
check_suggest_rc v4 0
expected "$FEX" | sed "s|\tsrv:$WORK/mnt/|\tsrv:/|" >"$OUT/v4.expected"
check_read_back v4 "$OUT/v4" "$FEX" "$OUT/v4.expected"
check_refused v4 "$OUT/v4" "$OUT/v4.err" "${refused[@]}"
sed -n 's|^#\(/.* -fstype=nfs,vers=3 .*\)$|\1|p' "$OUT/v4" >"$OUT/v3"
check_read_back v3 "$OUT/v3" "$FEX" "$OUT/own.expected"

# An export whose own path automount reads twice (a blank, a backslash),
# with a subvolume below it: no entry at all, the reason said once.
for own in 'sp ace' 'back\slash'; do
	btrfs -q subvolume create -- "$FEX/$own/inner" >/dev/null
	# exports(5) reads blanks and backslashes octal-escaped.
	printf '%s' "$FEX/$own" | perl -pe 's/([ \\])/sprintf("\\%03o", ord $1)/ge' >"$OUT/exports.own"
	printf ' 127.0.0.1(rw,no_subtree_check)\n' >>"$OUT/exports.own"
	suggest own-refused --exports "$OUT/exports.own" --format autofs --server srv "$FEX/$own"
	check_suggest_rc own-refused 0
	check_eq "$own: no entry line" "" "$(grep -v '^#' "$OUT/own-refused" || true)"
	check_eq "$own: the export's reason" 1 \
		"$(grep -c "^# not written: .*: an autofs(5) map cannot carry a \(blank\|backslash\) in the export's own path" \
			"$OUT/own-refused")"
	oracle "$OUT/own-refused" >"$OUT/own-refused.read"
	check_eq "$own: automount reads no entry" "" "$(cat "$OUT/own-refused.read")"
done
finish
