#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The textfile directory belongs to another account (nobody here, the
# exporter's on a server), which plants symbolic links to a root-only
# victim file at every name it can guess: the final name, the old unit's
# temporary names for the next 3000 PIDs and 2000 names of the pattern
# --output-file uses.  The command of btrfs-ino-audit.service (as built, run
# as the existing service test runs it) and "audit --format prometheus
# --output-file" each leave the victim unchanged and their file a regular
# file, mode 0644, owned by root, that promtool accepts, holding the
# fixture's metrics; nothing else is left in the directory.
source "$(dirname -- "$0")/audit-lib.sh"
setup_fixture
unit=$(dirname -- "$BTRFS_INO")/systemd/btrfs-ino-audit.service
[[ -f $unit ]] || fail "no built unit $unit"
command -v promtool >/dev/null || skip_or_fail "needs promtool (package prometheus)"
# nobody plants the links; btrfs-ino runs as root.
as_nobody
AS_NOBODY=("${RUN_WRAPPER[@]}")
RUN_WRAPPER=()

dir=$OUT/textfile
mkdir -- "$dir"
chown nobody: -- "$dir"
printf 'root only\n' >"$OUT/victim"
chmod 0600 -- "$OUT/victim"
cp -p -- "$OUT/victim" "$OUT/victim.before"

# plant NAME: as nobody, links at NAME's guessable temporary names and at
# NAME itself, all to the victim; prints how many.
plant() {
	local last_pid
	last_pid=$(cat /proc/sys/kernel/ns_last_pid)
	# shellcheck disable=SC2016 # perl's variables
	"${AS_NOBODY[@]}" perl -e '
		my ($dir, $name, $victim, $last_pid) = @ARGV;
		my @alphabet = ("A".."Z", "a".."z", "0".."9", "_", "-");
		my %names = ($name => 1);
		$names{".$name.$_"} = 1 for $last_pid + 1 .. $last_pid + 3000;
		$names{".$name." . join("", map { $alphabet[rand 64] } 1 .. 16)} = 1 for 1 .. 2000;
		symlink($victim, "$dir/$_") or die "$_: $!\n" for keys %names;
		print scalar(keys %names), "\n";' "$dir" "$1" "$OUT/victim" "$last_pid"
}

# check_written FILE: a regular file of root's, 0644, of the fixture's
# metrics, that promtool accepts.
check_written() {
	local file=$1
	[[ -f $file && ! -L $file ]] || fail "$file is not a regular file: $(ls -l -- "$file" 2>&1)"
	check_eq "$(basename -- "$file"): owner and mode" "0 644" "$(stat -c '%u %a' -- "$file")"
	promtool check metrics <"$file" >"$OUT/promtool" 2>&1 ||
		fail "promtool check metrics $file: $(cat "$OUT/promtool")"
	grep -qF "btrfs_ino_audit_safe{path=\"$MNT\"}" "$file" ||
		fail "no metric of the fixture's mount in $file"
}

# The unit's command, its continuation lines joined, "$$" read as systemd
# reads it and the installed binary replaced by the built one.
cmd=$(awk '/^ExecStart=/ { on = 1; sub(/^ExecStart=/, "") }
	on { line = $0; more = sub(/\\$/, "", line); printf "%s", line; if (!more) exit }' "$unit")
cmd=${cmd//\$\$/\$}
cmd=$(sed -E "s#[^ ;]*/btrfs-ino audit#'$BTRFS_INO' audit#" <<<"$cmd")
planted=$(plant btrfs-ino.prom)
rc=0
TEXTFILE_DIR=$dir as_server_exporting "$MNT" "$cmd" 2>"$OUT/unit.err" || rc=$?
[[ " 0 $(sed -n 's/^SuccessExitStatus=//p' "$unit") " == *" $rc "* ]] ||
	fail "the unit's command: exit status $rc: $(head -n 5 "$OUT/unit.err")"
check_files_eq "the victim after the unit's command" "$OUT/victim.before" "$OUT/victim"
check_written "$dir/btrfs-ino.prom"

planted=$((planted + $(plant direct.prom)))
audit direct-run --format prometheus --output-file "$dir/direct.prom" "$MNT"
check_audit_rc direct-run "0 1"
check_files_eq "the victim after audit --output-file" "$OUT/victim.before" "$OUT/victim"
check_eq "the victim's owner and mode" "0 600" "$(stat -c '%u %a' -- "$OUT/victim")"
check_written "$dir/direct.prom"

check_eq "regular files in the directory" "btrfs-ino.prom direct.prom" \
	"$(find "$dir" -type f -printf '%f\n' | sort | tr '\n' ' ' | sed 's/ $//')"
check_eq "links left (all planted but the two replaced)" "$((planted - 2))" \
	"$(find "$dir" -type l | wc -l)"
finish
