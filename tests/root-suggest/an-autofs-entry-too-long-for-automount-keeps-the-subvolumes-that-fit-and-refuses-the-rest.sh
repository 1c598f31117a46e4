#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 36: automount reads at most 16384 bytes of a map entry
# (MAPENT_MAX_LEN) and drops a longer one whole, so that an export with
# many subvolumes (snapshots are in the entry too) would get nothing
# mounted.  With 120 subvolumes of 100-byte names, Debian 12's automount
# (autofs-oracle.c) reads the block's one entry without error; what it
# mounts and what the block refuses with that reason ("# not written: PATH:
# ... at most 16384 bytes ...") are together exactly the export's
# subvolumes, none in both, and some are refused; the same on stderr.
source "$(dirname -- "$0")/suggest-lib.sh"
command -v perl >/dev/null || skip_or_fail "needs perl"
setup_scratch
oracle_rc=0
"$SUGGEST_TESTS_DIR/autofs-oracle.sh" "${AUTOFS_ORACLE_WORK:?}" "$OUT/oracle" \
	>"$OUT/oracle.log" 2>&1 || oracle_rc=$?
((oracle_rc == 0)) || skip_or_fail "cannot build the autofs oracle: $(tail -n 3 "$OUT/oracle.log")"
mount_loop btrfs 256M "$WORK/mnt"
FEX=$WORK/mnt/fex
mkdir -- "$FEX"
EXPORTS=$OUT/exports
printf '%s\n' "$FEX 127.0.0.1(rw,no_subtree_check)" >"$EXPORTS"
long=$(printf 'x%.0s' {1..96})
for i in $(seq -w 1 120); do
	btrfs -q subvolume create -- "$FEX/$i-$long" >/dev/null
done

# shown: NUL-ended paths, one a line, blank/control/non-ASCII/backslash as \ooo.
shown() {
	perl -0 -ne 'chomp; s/([\x00-\x20\x7f-\xff\\])/sprintf("\\%03o", ord $1)/ge; print "$_\n"'
}
format_output autofs --server srv
LD_LIBRARY_PATH=$AUTOFS_ORACLE_WORK/autofs-lib "$OUT/oracle" "$AUTOFS_ORACLE_WORK/autofs-lib" \
	"$OUT/format-autofs" >"$OUT/read" 2>"$OUT/read.err" || fail "the oracle failed: $(cat "$OUT/read.err")"
check_eq "automount reads the one entry, for the export, without error" \
	"entry $(printf '%s\0' "$FEX" | shown)" "$(grep -v '^mount ' "$OUT/read" || true)"
{ grep '^mount ' "$OUT/read" || true; } | cut -f1 | sed 's/^mount //' | sort >"$OUT/mounted"
sed -n 's/^# not written: \(.*\): an autofs(5) map entry is at most 16384 bytes.*$/\1/p' \
	"$OUT/format-autofs" | sort >"$OUT/refused"
sed -n 's/^btrfs-ino: \(.*\): not written: an autofs(5) map entry is at most 16384 bytes.*$/\1/p' \
	"$OUT/format-autofs.err" | sort >"$OUT/warned"
{
	printf '%s\0' "$FEX"
	for i in $(seq -w 1 120); do
		printf '%s\0' "$FEX/$i-$long"
	done
} | shown | sort >"$OUT/all"
sort -m "$OUT/mounted" "$OUT/refused" >"$OUT/both"
check_files_eq "mounted and refused are together every subvolume and the export, once each" \
	"$OUT/all" "$OUT/both"
check_files_eq "a warning on stderr for each refused" "$OUT/refused" "$OUT/warned"
(($(wc -l <"$OUT/refused") > 0)) || fail "nothing refused: the test's entry is not too long"
finish
