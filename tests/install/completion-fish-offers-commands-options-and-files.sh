#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# completions/btrfs-ino.fish parses (fish -n) and, loaded into fish, offers
# exactly the commands and, per command, the options --help lists, and
# files after --exports/--mountinfo and as PATH operands (complete -C).
# Without fish: skip, or fail under CI=true.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO:?BTRFS_INO must name the built btrfs-ino}"
command -v fish >/dev/null || skip_or_fail "needs fish"

TMP=$(mktemp -d /tmp/bino-compl-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
script=$SRCDIR/completions/btrfs-ino.fish
fish -n "$script" || fail "fish -n rejects $script"

# complete_line LINE: the candidates fish offers at the end of LINE, sorted,
# without their descriptions.
complete_line() {
	# shellcheck disable=SC2016 # fish expands $argv, not bash
	HOME=$TMP XDG_CONFIG_HOME=$TMP/config XDG_DATA_HOME=$TMP/data \
		fish --no-config -c 'source $argv[1]; complete -C $argv[2]' "$script" "$1" |
		cut -f1 | sort
}
check() {
	local what=$1 want=$2 got=$3
	[[ $want == "$got" ]] || fail "$what: expected [$(tr '\n' ' ' <<<"$want")], got [$(tr '\n' ' ' <<<"$got")]"
}

check "commands" "$(help_commands | sort)" "$(complete_line 'btrfs-ino ')"
check "global options" "$(help_options)" "$(complete_line 'btrfs-ino -')"
for command in $(help_commands); do
	[[ $command != help ]] || continue
	check "$command options" "$(help_options "$command")" "$(complete_line "btrfs-ino $command -")"
done
check "help COMMAND" "$(help_commands | grep -vx help | sort)" "$(complete_line 'btrfs-ino help ')"

touch "$TMP/exports-one" "$TMP/exports-two"
mkdir "$TMP/exports-dir"
want=$(printf '%s\n' "$TMP/exports-dir/" "$TMP/exports-one" "$TMP/exports-two")
check "--exports FILE" "$want" "$(complete_line "btrfs-ino audit --exports $TMP/exp")"
check "--mountinfo FILE" "$want" "$(complete_line "btrfs-ino audit --mountinfo $TMP/exp")"
check "walk PATH" "$want" "$(complete_line "btrfs-ino walk --json $TMP/exp")"
check "audit PATH" "$want" "$(complete_line "btrfs-ino audit $TMP/exp")"
printf '%s: ok\n' "$TEST_NAME"
