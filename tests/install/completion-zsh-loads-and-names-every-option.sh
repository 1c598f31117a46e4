#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# completions/_btrfs-ino parses in zsh (zsh -n), compinit picks it up from
# fpath for btrfs-ino (#compdef), and it names every command and every
# option that --help lists.  Without zsh: skip, or fail under CI=true.
set -euo pipefail
# shellcheck source=tests/install/lib.sh
. "$(dirname "$0")/lib.sh"
: "${BTRFS_INO:?BTRFS_INO must name the built btrfs-ino}"
command -v zsh >/dev/null || skip_or_fail "needs zsh"

TMP=$(mktemp -d /tmp/bino-compl-XXXXXX)
trap 'rm -rf -- "$TMP"' EXIT
script=$SRCDIR/completions/_btrfs-ino
zsh -n "$script" || fail "zsh -n rejects $script"

got=$(zsh -f -c 'fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -d "$2/zcompdump"
	print -r -- "$_comps[btrfs-ino]"; autoload +X _btrfs-ino && whence -w _btrfs-ino' \
	zsh "$(dirname "$script")" "$TMP" 2>&1)
want=$'_btrfs-ino\n_btrfs-ino: function'
[[ $got == "$want" ]] || fail "compinit: expected [$want], got [$got]"

failures=0
for command in $(help_commands); do
	grep -qE "'$command:" "$script" || { echo "command $command not described" >&2; failures=$((failures + 1)); }
done
# Each option appears in an _arguments spec: '--opt[', '--opt=-[', '-o[', {-o,--opt}.
for opt in $(help_options) $(help_options walk) $(help_options audit); do
	grep -qE -- "(['{,)])$opt(=?-?[[,}]|')" "$script" ||
		{ echo "option $opt not offered" >&2; failures=$((failures + 1)); }
done
((failures == 0)) || fail "$failures omission(s) in $script"
printf '%s: ok\n' "$TEST_NAME"
