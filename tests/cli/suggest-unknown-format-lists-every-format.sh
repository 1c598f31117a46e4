#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# `suggest --format bogus` is a usage error (exit 2) whose message lists the
# formats: exactly those btrfs-ino(1) names under --format, each of which
# the option then accepts (it gets past --format to the --json check).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

man=$(dirname "$0")/../../man/btrfs-ino.1
run suggest --format bogus "$TMP"
check_eq "exit status" 2 "$RC"
listed=$(sed -n "s/^.*unknown format 'bogus': one of //p" "$ERR" | tr -d ' ' | tr ',' '\n' | sort)
[[ -n $listed ]] || fail "no list of formats: $(cat "$ERR")"
# The man page's --format block paragraph: each .B/.BR word in it.
documented=$(awk '/^\.BI \\-\\-format " block"/ { on = 1; next }
	on && /^\.IP/ { exit }
	on && /^\.BR? / && $3 !~ /^\(/ { print $2 }' "$man" | sed 's/\\-/-/g' | grep -vx -e '(' -e '' |
	grep -E '^[a-z]+(-[a-z]+)*$' | sort)
check_eq "listed formats are the documented ones" "$documented" "$listed"
for f in $listed; do
	run suggest --json --format "$f" "$TMP"
	grep -qF -- "--json holds every block" "$ERR" || fail "--format $f not accepted: $(cat "$ERR")"
done
