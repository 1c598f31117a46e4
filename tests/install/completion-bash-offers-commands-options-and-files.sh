#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# completions/btrfs-ino.bash loads in bash and registers for btrfs-ino; it
# offers exactly the commands and, per command, the options that --help
# lists, files after --exports/--mountinfo and as PATH operands.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO:?BTRFS_INO must name the built btrfs-ino}"

TMP=$(mktemp -d /tmp/bino-compl-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
script=$SRCDIR/completions/btrfs-ino.bash
bash -n "$script" || fail "bash -n rejects $script"

# complete WORD...: what the completion offers for the last WORD, sorted;
# with bash-completion's library loaded first when PRELOAD names it.
complete_words() {
	bash --norc --noprofile -c '
		[[ -z $PRELOAD ]] || source "$PRELOAD"
		source "$1"; shift
		COMP_WORDS=(btrfs-ino "$@"); COMP_CWORD=$#
		COMP_LINE="btrfs-ino $*"; COMP_POINT=${#COMP_LINE}
		_btrfs_ino btrfs-ino "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' bash "$script" "$@" | sed '/^$/d' | sort
}
check() {
	local what=$1 want=$2 got=$3
	[[ $want == "$got" ]] || fail "$what: expected [$(tr '\n' ' ' <<<"$want")], got [$(tr '\n' ' ' <<<"$got")]"
}

touch "$TMP/exports-one" "$TMP/exports-two"
mkdir "$TMP/exports-dir"

# Alone, and on top of bash-completion (its _init_completion) if present.
preloads=('')
[[ ! -r /usr/share/bash-completion/bash_completion ]] ||
	preloads+=(/usr/share/bash-completion/bash_completion)
for PRELOAD in "${preloads[@]}"; do
	export PRELOAD
	registered=$(bash --norc --noprofile -c '[[ -z $PRELOAD ]] || source "$PRELOAD"
		source "$1"; complete -p btrfs-ino' bash "$script")
	check "complete -p btrfs-ino" "complete -F _btrfs_ino btrfs-ino" "$registered"
	check "commands" "$(help_commands | sort)" "$(complete_words '')"
	check "global options" "$(help_options)" "$(complete_words -)"
	for command in $(help_commands); do
		[[ $command != help ]] || continue
		check "$command options" "$(help_options "$command")" "$(complete_words "$command" -)"
	done
	check "help COMMAND" "$(help_commands | grep -vx help | sort)" "$(complete_words help '')"

	want=$(printf '%s\n' "$TMP/exports-dir" "$TMP/exports-one" "$TMP/exports-two")
	check "--exports FILE" "$want" "$(complete_words audit --exports "$TMP/exp")"
	check "--mountinfo FILE" "$want" "$(complete_words audit --json --mountinfo "$TMP/exp")"
	check "walk PATH" "$want" "$(complete_words walk --json "$TMP/exp")"
	check "audit PATH" "$want" "$(complete_words audit "$TMP/exp")"
done
printf '%s: ok\n' "$TEST_NAME"
