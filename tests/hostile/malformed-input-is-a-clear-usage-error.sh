#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Malformed exports files, mountinfo files and command lines:
#  - every invalid exports fixture (tests/data/exports/invalid), where
#    exportfs stops reading: exactly "btrfs-ino: FILE:LINE:COLUMN: MESSAGE"
#    on stderr as its .expected file says, and, as exportfs exports the
#    entries before it, a report naming the error (text, or exports_errors
#    in JSON) with exit 1 (a finding);
# and otherwise exit 2, nothing on stdout (no partial report), and one clear
# message on stderr:
#  - mountinfo files that are not mountinfo (garbage, fstab lines, fields
#    missing, no " - " separator, IDs that are not numbers, binary bytes):
#    a message naming FILE:LINE:COLUMN; a missing file or a directory: naming FILE;
#  - bad options and option values (--maxdepth beyond INT_MAX included): a
#    message and "Try 'btrfs-ino ... --help'"; an empty PATH is reported as
#    find reports it and does not stop the other PATHs from being walked.
# Needs no root: the audited and walked path is a small temporary tree.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
require_cli
DATA=${BINO_TEST_DATA:-$SRCDIR/tests/data}
WORK=$(mktemp -d "/tmp/btrfs-ino-hostile-input.XXXXXX")
trap 'rm -rf -- "$WORK"' EXIT
OUT=$WORK/out
mkdir -p -- "$OUT" "$WORK/tree/a/b"
touch -- "$WORK/tree/a/f"

# usage_error NAME STDERR_PATTERN ARGS...: exit 2, empty stdout, and stderr
# matching the extended regular expression (first line that matches).
usage_error() {
	local name=$1 pattern=$2
	shift 2
	run_cli "$name" 30 "$@"
	check_rc "$name" 2
	check_eq "$name: stdout" "" "$(head -c 200 "$OUT/$name")"
	grep -qE -- "$pattern" "$OUT/$name.err" ||
		fail "$name: stderr does not match /$pattern/: $(head -c 300 "$OUT/$name.err")"
}

# ---- exports files
n=0
for file in "$DATA"/exports/invalid/*.exports; do
	case_name=$(basename -- "$file" .exports)
	where=$(sed -n 's/^error //p' "${file%.exports}.expected")
	expected="btrfs-ino: $file:$where"
	for format in text json; do
		args=()
		[[ $format == text ]] || args=(--json)
		name=exports-$case_name-$format
		run_cli "$name" 30 audit "${args[@]}" --exports "$file" "$WORK/tree"
		check_rc "$name" 1
		if [[ $format == text ]]; then
			grep -qxF -- "exports error: $file:$where" "$OUT/$name" ||
				fail "$name: the report does not name the error: $(head -c 300 "$OUT/$name")"
		else
			check_eq "$name: exports_errors" "$where" \
				"$(jq -r '.exports_errors[] | "\(.line):\(.column): \(.message)"' "$OUT/$name")"
		fi
		check_eq "$name: stderr" "$expected" "$(cat "$OUT/$name.err")"
	done
	n=$((n + 1))
done
((n > 0)) || fail "no invalid exports fixtures in $DATA/exports/invalid"
echo "exports: $n malformed files"
usage_error exports-missing "^btrfs-ino: $WORK/nonexistent: .*No such file or directory" \
	audit --exports "$WORK/nonexistent" "$WORK/tree"
usage_error exports-directory "^btrfs-ino: $WORK/tree: .*Is a directory" \
	audit --exports "$WORK/tree" "$WORK/tree"

# ---- mountinfo files
good='22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw'
mi() { printf '%s\n' "$@" >"$WORK/$name.mountinfo"; }
declare -A mountinfo_cases=(
	[garbage]="garbage line here"
	[fstab-line]="/dev/sda1 / ext4 defaults 0 1"
	[too-few-fields]="22 1 8:1 /"
	[no-separator]="22 1 8:1 / / rw,relatime shared:1 ext4 /dev/sda1 rw"
	[ids-not-numbers]="x y 8:1 / / rw,relatime - ext4 /dev/sda1 rw"
	[bad-dev]="22 1 eight:one / / rw,relatime - ext4 /dev/sda1 rw"
	[nothing-after-separator]="22 1 8:1 / / rw,relatime -"
)
for case_name in "${!mountinfo_cases[@]}"; do
	name=mountinfo-$case_name
	# The bad line is line 2, after a good one.
	mi "$good" "${mountinfo_cases[$case_name]}"
	usage_error "$name" "^btrfs-ino: $WORK/$name.mountinfo:2:[0-9]+: " \
		audit --mountinfo "$WORK/$name.mountinfo" "$WORK/tree"
	usage_error "$name-json" "^btrfs-ino: $WORK/$name.mountinfo:2:[0-9]+: " \
		audit --json --mountinfo "$WORK/$name.mountinfo" "$WORK/tree"
done
# The line named is the line of the file, blank lines and comments counted.
name=mountinfo-fstab-after-blank-lines
printf '\n# comment\n\n/dev/sda1 / ext4 defaults 0 1\n' >"$WORK/$name.mountinfo"
usage_error "$name" "^btrfs-ino: $WORK/$name.mountinfo:4:[0-9]+: " \
	audit --mountinfo "$WORK/$name.mountinfo" "$WORK/tree"
name=mountinfo-id-0-after-blank-lines
mi "$good" "" "" '23 22 8:2 / /x rw - ext4 /dev/sda2 rw' '0 22 8:3 / /y rw - ext4 /dev/sda3 rw'
usage_error "$name" "^btrfs-ino: $WORK/$name.mountinfo:5:[0-9]+: " \
	audit --mountinfo "$WORK/$name.mountinfo" "$WORK/tree"
name=mountinfo-binary
{ echo "$good"; head -c 512 /dev/urandom | tr -d '\n'; echo; } >"$WORK/$name.mountinfo"
usage_error "$name" "^btrfs-ino: $WORK/$name.mountinfo:2:[0-9]+: " \
	audit --mountinfo "$WORK/$name.mountinfo" "$WORK/tree"
usage_error mountinfo-missing "^btrfs-ino: $WORK/nonexistent: .*No such file or directory" \
	audit --mountinfo "$WORK/nonexistent" "$WORK/tree"
usage_error mountinfo-directory "^btrfs-ino: $WORK/tree: " \
	audit --mountinfo "$WORK/tree" "$WORK/tree"

# ---- command lines
try="Try 'btrfs-ino( walk| audit)? --help'"
usage_error no-command "$try"
usage_error unknown-command "unknown command 'bogus'" bogus
usage_error walk-unknown-option "$try" walk --bogus "$WORK/tree"
usage_error walk-no-path "$try" walk
usage_error walk-print0-json "$try" walk -0 --json "$WORK/tree"
for value in -1 abc '' 1x 4294967296 99999999999 2147483648; do
	usage_error "walk-maxdepth-${value:-empty}" "invalid --maxdepth '$value'" \
		walk --maxdepth "$value" "$WORK/tree"
done
# An empty PATH names nothing, like a missing one (find: "'': No such file
# or directory"): alone, exit 2 naming it; beside a good PATH, the good one is
# still walked and the exit status is 1.
usage_error walk-empty-path "^btrfs-ino: ('')?: Could not stat: No such file or directory" walk ""
run_cli walk-good-and-empty-path 30 walk -0 "$WORK/tree" ""
check_rc walk-good-and-empty-path 1
check_eq "walk-good-and-empty-path: the good PATH is walked" "$(find "$WORK/tree" | LC_ALL=C sort)" \
	"$(tr '\0' '\n' <"$OUT/walk-good-and-empty-path" | LC_ALL=C sort)"
grep -q 'No such file or directory' "$OUT/walk-good-and-empty-path.err" ||
	fail "walk-good-and-empty-path: stderr does not report the empty PATH: $(head -c 300 "$OUT/walk-good-and-empty-path.err")"
usage_error audit-unknown-option "$try" audit --bogus "$WORK/tree"
usage_error audit-exports-without-file "$try" audit --exports
usage_error audit-mountinfo-without-file "$try" audit --mountinfo

finish
