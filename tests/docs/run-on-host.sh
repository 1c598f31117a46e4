#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# run-on-host.sh: every "host" entry of tests/docs/commands (the README's set-up,
# build, install and build-against-the-library lines), run verbatim in the
# table's order with the exit status it gives, in a copy of the source tree.
# They install into /usr and /etc as root: that happens in a mount namespace of
# this test's own, where /usr and /etc are overlays whose changes are thrown
# away, so the machine is left as it was.
set -euo pipefail
# shellcheck source=tests/docs/lib.sh
. "$(dirname "$0")/lib.sh"

if [[ $(id -u) -ne 0 ]] || ! command -v unshare >/dev/null; then
	echo "needs root and unshare (a private mount namespace for /usr and /etc)" >&2
	[[ ${CI:-} == true ]] && exit 1
	exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work"/{src,usr.upper,usr.work,etc.upper,etc.work}
# The tree as a clean clone has it: tracked files when it is a checkout.
if git -C "$docs_src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$docs_src" ls-files -z | (cd "$docs_src" && xargs -0 cp --parents -t "$work/src")
else
	(cd "$docs_src" && tar --exclude='./build*' -cf - .) | tar -C "$work/src" -xf -
fi
table_entries host >"$work/commands"

# In the namespace: overlays, then each command with its expected status.
# shellcheck disable=SC2016 # expanded by the inner shell
unshare --mount --propagation private bash -c '
	set -uo pipefail
	work=$1
	for d in usr etc; do
		mount -t overlay overlay \
			-o "lowerdir=/$d,upperdir=$work/$d.upper,workdir=$work/$d.work" "/$d"
	done
	cd "$work/src"
	failed=0
	while IFS=$'\''\t'\'' read -r -d "" _ want cmd; do
		printf "$ %s\n" "$cmd"
		rc=0
		bash -c "$cmd" >"$work/out" 2>&1 || rc=$?
		tail -n 8 "$work/out" | sed "s/^/  | /"
		if [[ $rc -ne $want ]]; then
			echo "FAIL: exit $rc, the table says $want"
			failed=$((failed + 1))
		fi
	done <"$work/commands"
	exit "$failed"
' inner "$work"
