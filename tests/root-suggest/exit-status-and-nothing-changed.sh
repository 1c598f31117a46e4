#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Exit status: 1 with suggestions (classic layout), 0 for a safe tree (a
# plain directory), 2 for an unknown --format and for a missing path.  The
# command changes nothing: the mount table and the exports file are the
# same afterwards.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export

# The mounts of this test's fixture, where the command would act, as
# "TARGET OPTIONS" fields: other root tests may mount their own fixtures
# meanwhile, and findmnt's table pads TARGET to the longest mount on the
# whole system, so only raw output (-r, one unpadded escaped field each)
# compares.
fixture_mounts() {
	findmnt -n -r -o TARGET,OPTIONS |
		awk -v work="$WORK" '$1 == work || index($1, work "/") == 1 { print $1, $2 }' | sort
}
fixture_mounts >"$OUT/mounts.before"
grep -q "^$MNT " "$OUT/mounts.before" || fail "the fixture's mount $MNT is not among its mounts"
cp -p -- "$EXPORTS" "$OUT/exports.before"

suggest classic --exports "$EXPORTS" "$FEX"
check_suggest_rc classic 0
for heading in '1. Server fstab' '2. Server exports' '3. Client fstab' \
	'Placeholder directories' 'Users who cannot change the server'; do
	grep -qF "## $heading" "$OUT/classic" || fail "full report lacks '$heading'"
done
# The placeholders it names are those find finds on the server.
find "$FEX" -type d -inum 2 | sort >"$OUT/placeholders"
sed -n 's/^#   \(\/.*\)$/\1/p' "$OUT/classic" | grep -F -- "/.snapshot/" |
	grep -vE '^[0-9]' | sort >"$OUT/named"
grep -Fx -f "$OUT/placeholders" "$OUT/named" | sort >"$OUT/named-placeholders"
check_files_eq "placeholders named" "$OUT/placeholders" "$OUT/named-placeholders"

plain=$WORK/plain
mkdir -p -- "$plain/a"
echo one >"$plain/a/one"
suggest plain --exports "$EXPORTS" "$plain"
check_suggest_rc plain 0
grep -q 'safe for NFS clients, nothing to change' "$OUT/plain" || fail "safe tree not called safe"

suggest badformat --exports "$EXPORTS" --format nonsense "$FEX"
check_suggest_rc badformat 2
grep -q "Try 'btrfs-ino suggest --help'" "$OUT/badformat.err" || fail "no usage hint"
suggest missing --exports "$EXPORTS" "$WORK/does-not-exist"
check_suggest_rc missing 2

fixture_mounts >"$OUT/mounts.after"
check_files_eq "mount table below the fixture unchanged" "$OUT/mounts.before" "$OUT/mounts.after"
cmp -s -- "$EXPORTS" "$OUT/exports.before" || fail "exports file changed"
finish
