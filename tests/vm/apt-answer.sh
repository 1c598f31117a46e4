# SPDX-License-Identifier: LGPL-2.1-or-later
# Sourced by fetch-kernel.sh and fetch-package.sh: apt-cache takes a second, and
# every VM test asks it the same question.
# shellcheck shell=bash

# apt_answer FILE COMMAND...: COMMAND's output, kept in FILE until apt's package
# lists or dpkg's status change (apt-get update, apt-get install); an empty
# answer is not kept.
apt_answer() {
	local file=$1 answer
	shift
	if [[ -s $file && $file -nt /var/lib/apt/lists && $file -nt /var/lib/dpkg/status ]]; then
		cat -- "$file"
		return
	fi
	answer=$("$@" || true)
	if [[ -n $answer ]]; then
		mkdir -p -- "$(dirname -- "$file")"
		printf '%s\n' "$answer" >"$file.$$" && mv -- "$file.$$" "$file"
	fi
	printf '%s\n' "$answer"
}
