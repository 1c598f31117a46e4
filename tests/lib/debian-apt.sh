# SPDX-License-Identifier: LGPL-2.1-or-later
# A private apt for Debian 12 (bookworm), for the oracles that fetch a
# Debian package or its source at test time (exports-diff's nfs-utils,
# root-suggest's autofs): its own sources list, lists and cache in a
# directory of the caller's, nothing of the machine's apt read or changed.
# The caller defines cannot MESSAGE (skip, or fail under CI=true) first.
# shellcheck shell=bash

# debian_apt DIR LINE LOG: the apt of sources.list line LINE in DIR,
# updated (its output in LOG); the apt-get options that use it in the array
# APT_OPTS.  Any further apt-get option may follow LOG.
debian_apt() {
	local dir=$1 line=$2 log=$3
	shift 3
	mkdir -p "$dir/lists/partial" "$dir/cache/archives/partial"
	echo "$line" >"$dir/sources.list"
	APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list" -o Dir::Etc::SourceParts=/dev/null
		-o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		-o APT::Sandbox::User="$(id -un)" -qq "$@")
	apt-get "${APT_OPTS[@]}" update >"$log" 2>&1 ||
		{ cat "$log" >&2; cannot "apt-get update of ${line#* } failed"; }
}
