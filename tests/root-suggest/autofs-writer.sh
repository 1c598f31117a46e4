#!/usr/bin/env bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Issue 36: every name of up to three bytes of what automount's readers
# treat specially ('$', '{', '}', '&', ':', '"', '\', '#', blank, '-',
# '/', quote, bytes that are not ASCII) and plain bytes, quoted by
# cli/support/quote.c as suggest's autofs map is (autofs-writer.c), both as a
# subvolume's offset and location and as an export's key and location,
# is read back by Debian 12's automount (autofs-oracle.c) as exactly the
# mounts meant, or is refused by quote.h's rules: no entry is misread or
# lost, and no error is said.
#
# Environment: AUTOFS_WRITER (autofs-writer.c built), AUTOFS_ORACLE_WORK (a
# build directory to keep Debian's autofs libraries in).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
writer=${AUTOFS_WRITER:?}
work=${AUTOFS_ORACLE_WORK:?}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$here/autofs-oracle.sh" "$work" "$tmp/oracle"
"$writer" "$tmp/map" | sort >"$tmp/expected"
LD_LIBRARY_PATH=$work/autofs-lib "$tmp/oracle" "$work/autofs-lib" "$tmp/map" >"$tmp/read"
echo "names: $(grep -c . "$tmp/expected") mounts meant, $(grep -c '^entry ' "$tmp/read") entries read"
status=0
if grep '^error ' "$tmp/read" >"$tmp/errors"; then
	echo "FAIL: automount says:"
	head -20 "$tmp/errors"
	status=1
fi
grep '^mount ' "$tmp/read" | sort >"$tmp/mounts" || true
if ! diff -u "$tmp/expected" "$tmp/mounts" >"$tmp/diff"; then
	echo "FAIL: automount mounts other than meant (-meant +read):"
	head -40 "$tmp/diff"
	status=1
fi
exit $status
