#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Run a test under valgrind memcheck, following every child process: for
# `meson test --wrap=tests/valgrind-wrap.sh`.  Criterion runs each test in a
# worker process of its own (BoxFort re-executes the test binary), and a
# worker's leaks or invalid accesses never reach the runner's exit status,
# so plain --wrap='valgrind --error-exitcode=1' misses them.  Here every
# process writes its own log (--log-file=...%p), and after the test this
# script fails it (exit 1) when any log reports an error or a definite or
# indirect leak, printing that log.  The test's own status is kept otherwise.
#
# Environment: VALGRIND_LOG_DIR (default: a fresh temp dir, removed when
# clean), VALGRIND_OPTS (more valgrind options), VALGRIND_SKIP (patterns of
# programs not to trace, comma-separated, default: common tools that tests
# run, which are not ours).  No --track-origins by default: it finds no
# more errors (only where an uninitialised value came from) and doubles the
# run; to chase one, VALGRIND_OPTS=--track-origins=yes.
set -uo pipefail

if (($# == 0)); then
	echo "usage: $0 PROGRAM [ARGS...]" >&2
	exit 2
fi
command -v valgrind >/dev/null || {
	echo "$0: valgrind is not installed" >&2
	exit 1
}

logdir=${VALGRIND_LOG_DIR:-}
keep_logs=true
if [[ -z $logdir ]]; then
	logdir=$(mktemp -d "${TMPDIR:-/tmp}/valgrind-wrap.XXXXXX")
	keep_logs=false
fi
mkdir -p -- "$logdir"
skip=${VALGRIND_SKIP:-*/bash,*/sh,*/dash,*/env,*/jq,*/find,*/sort,*/grep,*/sed,*/awk,*/mawk,*/cat,*/cmp,*/diff,*/mktemp,*/rm,*/mkdir,*/stat,*/timeout}

rc=0
# shellcheck disable=SC2086
valgrind --tool=memcheck --trace-children=yes --trace-children-skip="$skip" \
	--child-silent-after-fork=no --leak-check=full --show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect --num-callers=30 \
	--log-file="$logdir/vg.%p.log" ${VALGRIND_OPTS:-} -- "$@" || rc=$?

bad=0
for log in "$logdir"/vg.*.log; do
	[[ -e $log ]] || continue
	# "ERROR SUMMARY: N errors" counts invalid accesses, uninitialised
	# values and (with --errors-for-leak-kinds) definite/indirect leaks.
	if grep -Eq 'ERROR SUMMARY: [1-9][0-9]* errors' "$log" ||
		grep -Eq '(definitely|indirectly) lost: [1-9][0-9,]* bytes' "$log"; then
		echo "valgrind-wrap: errors in $log:" >&2
		sed -n '/^==[0-9]*== Command:/p; /Invalid\|uninitialised\|definitely lost in\|indirectly lost in\|ERROR SUMMARY/,+12p' "$log" |
			head -80 >&2
		bad=1
	fi
done
if ((bad)); then
	echo "valgrind-wrap: logs kept in $logdir" >&2
	exit 1
fi
$keep_logs || rm -rf -- "$logdir"
exit "$rc"
