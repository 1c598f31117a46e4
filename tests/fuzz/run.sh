#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Build the libFuzzer targets with clang (ASan + UBSan) and run each for
# SECONDS, starting from its committed seeds and regression inputs.
#
# Usage: tests/fuzz/run.sh [SECONDS] [TARGET...]
#   SECONDS  per target (default 20); 0 only replays seeds and regressions
#   TARGET   exports, nfshandle, mountinfo, escape, quote (default: all)
# Environment: FUZZ_BUILD_DIR (default SRC/build-fuzz), CC (default clang).
#
# Each target keeps a growing corpus in FUZZ_BUILD_DIR/corpus/TARGET; the
# committed seeds (seeds/TARGET) and regressions (regressions/TARGET) are
# read but never written.  A crash, leak, timeout or failed CHECK leaves its
# input in FUZZ_BUILD_DIR/artifacts/ and makes this script exit 1; commit the
# input under regressions/TARGET/ so every later run replays it.  Prints one
# line a target: executions, corpus size, result.
set -euo pipefail

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)
src=$(cd -- "$here/../.." && pwd)
seconds=${1:-20}
shift || true
build=${FUZZ_BUILD_DIR:-$src/build-fuzz}
cc=${CC:-clang}
all_targets=(exports nfshandle mountinfo escape quote)
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")

[[ $seconds =~ ^[0-9]+$ ]] || {
	echo "usage: $0 [SECONDS] [TARGET...]" >&2
	exit 2
}
if ! "$cc" --version 2>/dev/null | grep -q clang; then
	echo "$0: needs clang with libFuzzer (CC=$cc)" >&2
	exit 2
fi

# btrfsino.h includes the version header meson generates from project()'s
# version; this build, outside meson, makes it from the same line.
version=$(sed -n "s/^ *version *: *'\([0-9]*\.[0-9]*\.[0-9]*\)',$/\1/p" "$src/meson.build" | head -n 1)
[[ -n $version ]] || {
	echo "$0: no project version in $src/meson.build" >&2
	exit 2
}
IFS=. read -r major minor micro <<<"$version"
mkdir -p -- "$build/include"
sed -e "s/@BINO_VERSION_MAJOR@/$major/" -e "s/@BINO_VERSION_MINOR@/$minor/" \
	-e "s/@BINO_VERSION_MICRO@/$micro/" -e "s/@BINO_VERSION_STRING@/$version/" \
	"$src/include/btrfsino-version.h.in" >"$build/include/btrfsino-version.h"

# shellcheck disable=SC2054 # commas inside -fsanitize= are not separators
cflags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
	-fno-omit-frame-pointer -D_GNU_SOURCE -std=gnu11 -Wall -Wextra -Wno-unused-parameter
	-I"$src/include" -I"$build/include" -I"$src/lib/util" -I"$src/lib/base" -I"$src/lib/probe"
	-I"$src/lib/tables" -I"$src/cli/support")

# sources TARGET: the files each target is built from.
sources() {
	case $1 in
	exports) echo "$src/lib/tables/exports.c $src/lib/tables/exports_lex.c $src/lib/tables/exports_options.c $src/lib/util/strbuf.c $src/lib/base/error.c" ;;
	nfshandle) echo "$src/lib/probe/nfshandle.c $src/lib/probe/fhandle.c" ;;
	mountinfo) echo "$src/lib/tables/mounts.c $src/lib/util/path.c $src/lib/probe/statx.c $src/lib/base/error.c" ;;
	escape) echo "$src/lib/util/escape.c" ;;
	quote) echo "$src/cli/support/quote.c $src/lib/util/escape.c" ;;
	*) return 1 ;;
	esac
}

libs() {
	case $1 in
	mountinfo | quote) pkg-config --cflags --libs mount ;;
	*) echo ;;
	esac
}

mkdir -p -- "$build/artifacts"
status=0
for target in "${targets[@]}"; do
	srcs=$(sources "$target") || {
		echo "$0: unknown target '$target' (known: ${all_targets[*]})" >&2
		exit 2
	}
	exe=$build/fuzz_$target
	# shellcheck disable=SC2046,SC2086
	"$cc" "${cflags[@]}" -o "$exe" "$here/fuzz_$target.c" $srcs $(libs "$target")
	corpus=$build/corpus/$target
	mkdir -p -- "$corpus"
	inputs=("$here/seeds/$target")
	[[ ! -d $here/regressions/$target ]] || inputs+=("$here/regressions/$target")
	log=$build/fuzz_$target.log
	args=(-artifact_prefix="$build/artifacts/$target-" -timeout=10 -rss_limit_mb=2048
		-print_final_stats=1)
	if ((seconds == 0)); then
		args+=(-runs=0)
	else
		args+=(-max_total_time="$seconds")
	fi
	rc=0
	ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} \
		"$exe" "${args[@]}" "$corpus" "${inputs[@]}" >"$log" 2>&1 || rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	size=$(find "$corpus" -type f | wc -l)
	if ((rc == 0)); then
		echo "fuzz $target: ok, ${execs:-?} executions in ${seconds}s, corpus $size"
	else
		echo "fuzz $target: FAILED (exit $rc), ${execs:-?} executions; log $log:"
		grep -E -A30 '^==[0-9]+==ERROR|runtime error|deadly signal|Test unit written' "$log" | head -60 | sed 's/^/  /'
		status=1
	fi
done
exit "$status"
