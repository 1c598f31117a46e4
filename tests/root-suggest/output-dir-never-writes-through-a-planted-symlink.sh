#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Links planted at the unit file names (names systemd-escape computes from
# btrfs subvolume list -q, snapshots left out) point to a stand-in for /etc/profile.d/x.sh: suggest
# --output-dir never writes through them.  A directory another user could
# change is refused before anything is written, with one line naming it:
# a sticky /tmp-like one (others could add units beside ours), a plain 0777
# one, one below a 0777 directory, one nobody made or owns.  In root's own
# directory, where the links were left, each unit replaces its link as a
# regular file, mode 0644, holding what --format mount-units prints for it.
source "$(dirname -- "$0")/suggest-lib.sh"
setup_export
{ id nobody && command -v setpriv; } >/dev/null 2>&1 ||
	skip_or_fail "needs the user nobody and setpriv"
chmod go+rx -- "$WORK" "$OUT"
AS_NOBODY=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)

mkdir -- "$OUT/profile.d"
printf '# stand-in for a profile.d fragment\n' >"$OUT/profile.d/x.sh"
cp -p -- "$OUT/profile.d/x.sh" "$OUT/x.sh.before"
expected_plain_subvols | while IFS=$'\t' read -r _ path; do
	systemd-escape --path --suffix=mount -- "$path"
done | sort >"$OUT/names"
[[ -s $OUT/names ]] || fail "the fixture has no subvolume below $FEX"

# plant DIR [WHO...]: links at every unit name in DIR, made by the command
# WHO (none: root).
plant() {
	local dir=$1 name
	shift
	while IFS= read -r name; do
		"$@" ln -s -- "$OUT/profile.d/x.sh" "$dir/$name"
	done <"$OUT/names"
}

# refused NAME DIR WHAT: suggest --output-dir DIR exits 2 with one line
# naming WHAT (DIR or the directory on its way that others may change);
# the stand-in is unchanged.
refused() {
	local name=$1 dir=$2 what=$3
	suggest "$name" --exports "$EXPORTS" --output-dir "$dir" "$FEX"
	check_suggest_rc "$name" 2
	check_eq "$name: what it says" 1 "$(grep -c "^btrfs-ino: $what: refused: " "$OUT/$name.err")"
	check_files_eq "$name: the stand-in" "$OUT/x.sh.before" "$OUT/profile.d/x.sh"
}

mkdir -m 1777 -- "$OUT/sticky"
plant "$OUT/sticky" "${AS_NOBODY[@]}"
refused in-sticky "$OUT/sticky" "$OUT/sticky"

mkdir -m 0777 -- "$OUT/open"
plant "$OUT/open" "${AS_NOBODY[@]}"
refused in-open "$OUT/open" "$OUT/open"
refused below-open "$OUT/open/units" "$OUT/open"

"${AS_NOBODY[@]}" mkdir -- "$OUT/sticky/units"
plant "$OUT/sticky/units" "${AS_NOBODY[@]}"
refused in-nobodys "$OUT/sticky/units" "$OUT/sticky/units"

mkdir -- "$OUT/units"
plant "$OUT/units"
suggest units.txt --exports "$EXPORTS" --format mount-units "$FEX"
check_suggest_rc units.txt 0
suggest written --exports "$EXPORTS" --output-dir "$OUT/units" "$FEX"
check_suggest_rc written 0
check_files_eq "the stand-in after writing over the links" "$OUT/x.sh.before" "$OUT/profile.d/x.sh"
(cd "$OUT/units" && ls -A | sort) >"$OUT/names.written"
check_files_eq "the names in the directory" "$OUT/names" "$OUT/names.written"
while IFS= read -r name; do
	unit=$OUT/units/$name
	[[ -f $unit && ! -L $unit ]] || fail "$name is not a regular file: $(ls -l -- "$unit" 2>&1)"
	check_eq "$name: owner and mode" "0 644" "$(stat -c '%u %a' -- "$unit")"
	# ENVIRON, not -v: awk would read the backslashes of \x2d.
	HEADING="# file: /etc/systemd/system/$name" awk '
		$0 == ENVIRON["HEADING"] { on = 1; next }
		on && /^# file: / { exit }
		on { line[n++] = $0 }
		END { while (n > 0 && line[n - 1] == "") n--; for (i = 0; i < n; i++) print line[i] }' \
		"$OUT/units.txt" >"$OUT/expected.unit"
	check_files_eq "$name is its block" "$OUT/expected.unit" "$unit"
done <"$OUT/names"
finish
