#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 36: a hard link to a file root must not change (a stand-in for
# /etc/shadow), planted at the temporary name root will create, is never
# written through: the names are made predictable by an LD_PRELOAD shim of
# getrandom() (getrandom-shim.c: the n-th name of a file is ".NAME." and 16
# times the n-th character of safe_file.c's alphabet).  The metrics file
# (audit --format prometheus --output-file) whose first name is taken is
# written under its second, whole, and the link is left as it was (a link
# at the final name is replaced, not written through); suggest
# --output-dir whose every name is taken (the shim's constant mode) fails
# with the reason and writes no unit.  The stand-in stays byte-identical,
# its mode and link count too.
source "$(dirname -- "$0")/suggest-lib.sh"
[[ -n ${GETRANDOM_SHIM:-} && -f $GETRANDOM_SHIM ]] || {
	fail "GETRANDOM_SHIM is not the shim library: ${GETRANDOM_SHIM:-(unset)}"
	exit 1
}
setup_export
alphabet=ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-

stand_in=$OUT/shadow
printf 'root:$6$secret:19000:0:99999:7:::\n' >"$stand_in"
chmod 0600 -- "$stand_in"
cp -p -- "$stand_in" "$OUT/shadow.before"

# temp_name NAME N: the N-th temporary name safe_file.c tries for NAME.
temp_name() {
	local c=${alphabet:$2:1}
	printf '.%s.%s' "$1" "$c$c$c$c$c$c$c$c$c$c$c$c$c$c$c$c"
}
check_stand_in() {
	check_files_eq "$1: the linked file's bytes" "$OUT/shadow.before" "$stand_in"
	check_eq "$1: its mode and link count" "600 2" "$(stat -c '%a %h' -- "$stand_in")"
}

# The metrics file: the first temporary name is a link to the stand-in, and
# so is the final name (the new file replaces that link, as rename does).
dir=$OUT/textfile
mkdir -- "$dir"
ln -- "$stand_in" "$dir/$(temp_name btrfs-ino.prom 0)"
ln -- "$stand_in" "$dir/btrfs-ino.prom"
# Under AddressSanitizer a preloaded library must be allowed before its
# runtime (the shim calls nothing it intercepts).
asan_options=verify_asan_link_order=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}
RUN_WRAPPER=(env "LD_PRELOAD=$GETRANDOM_SHIM" "ASAN_OPTIONS=$asan_options")
run_cli audit metrics --format prometheus --exports "$EXPORTS" \
	--output-file "$dir/btrfs-ino.prom" "$FEX"
check_rc metrics "$RUN_RC" "0 1"
check_stand_in metrics
check_eq "metrics: the file is written, whole, and the link left" \
	"$(temp_name btrfs-ino.prom 0) btrfs-ino.prom" \
	"$(cd "$dir" && ls -A | sort | tr '\n' ' ' | sed 's/ $//')"
grep -qF "btrfs_ino_audit_safe{path=\"$FEX\"}" "$dir/btrfs-ino.prom" ||
	fail "metrics: no metric of the export in the file"
check_eq "metrics: the file is root's own, 0644, one link" "0 644 1" \
	"$(stat -c '%u %a %h' -- "$dir/btrfs-ino.prom")"

# suggest --output-dir: every temporary name of every unit is a link.
expected_plain_subvols | while IFS=$'\t' read -r _ path; do
	systemd-escape --path --suffix=mount -- "$path"
done | sort >"$OUT/names"
[[ -s $OUT/names ]] || fail "the fixture has no subvolume below $FEX"
mkdir -- "$OUT/units"
while IFS= read -r name; do
	ln -- "$stand_in" "$OUT/units/$(temp_name "$name" 0)"
done <"$OUT/names"
links=$(wc -l <"$OUT/names")
# shellcheck disable=SC2034 # run_cli's
RUN_WRAPPER=(env "LD_PRELOAD=$GETRANDOM_SHIM" "ASAN_OPTIONS=$asan_options" GETRANDOM_SHIM_CONSTANT=1)
suggest units-run --exports "$EXPORTS" --output-dir "$OUT/units" "$FEX"
check_suggest_rc units-run 2
check_eq "units: it says why" 1 "$(grep -c ': File exists$' "$OUT/units-run.err")"
check_eq "units: no unit written, the links left" "$links 0" \
	"$(find "$OUT/units" -samefile "$stand_in" | wc -l) $(find "$OUT/units" -type f ! -samefile "$stand_in" | wc -l)"
stand_in_links=$(stat -c %h -- "$stand_in")
check_files_eq "units: the linked file's bytes" "$OUT/shadow.before" "$stand_in"
check_eq "units: its mode and link count" "600 $((links + 2))" "$(stat -c %a -- "$stand_in") $stand_in_links"
finish
