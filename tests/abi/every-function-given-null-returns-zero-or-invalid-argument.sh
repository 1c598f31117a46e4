#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# The NULL rule of include/btrfsino.h's conventions block, for every function
# the header declares with a pointer parameter (the list comes from the
# compiler, so a new function cannot escape it): called with every argument
# 0 or NULL it does not crash, a function returning enum bino_error returns
# BINO_ERROR_INVALID_ARGUMENT, a getter returns NULL, 0, false or a zero key,
# and a void function (destroy, prune, set_progress) does nothing.
set -euo pipefail
# shellcheck source=tests/abi/lib.sh
. "$(dirname "$0")/lib.sh"
: "${CC:?CC must name the C compiler}"
: "${LIBDIR:?LIBDIR must name the directory of the built library}"
command -v "${CC%% *}" >/dev/null || fail "no C compiler '$CC'"
gcc=${GCC:-gcc}
command -v "$gcc" >/dev/null || skip_or_fail "needs gcc for -aux-info"

"$gcc" -std=gnu11 -fsyntax-only -aux-info "$TMP/aux" -x c "$HEADER"
# "RETURN|NAME|NARGS" for each prototype of the header with a '*' in its
# parameters (NARGS counts the commas outside parentheses).
grep -F -- "/* $HEADER:" "$TMP/aux" |
	sed -E 's|^/\*[^*]*\*/ extern ||; s/^([^(]*[ *])([A-Za-z_][A-Za-z0-9_]*) \((.*)\);$/\1|\2|\3/' |
	awk -F'|' -v OFS='|' '$3 ~ /\*/ {
		n = 1; depth = 0
		for (i = 1; i <= length($3); i++) {
			c = substr($3, i, 1)
			depth += (c == "(") - (c == ")")
			n += (c == "," && depth == 0)
		}
		print $1, $2, n
	}' >"$TMP/protos"
[[ -s $TMP/protos ]] || fail "found no function with a pointer parameter in $HEADER"

{
	printf '#include <stdio.h>\n#include <string.h>\n#include <sys/wait.h>\n#include <unistd.h>\n'
	printf '#include "btrfsino.h"\n'
	printf '/* Calls function @n with every argument 0; 1 if it breaks the rule. */\n'
	printf 'static int call(int n)\n{\n\tswitch (n) {\n'
	n=0
	while IFS='|' read -r ret name nargs; do
		ret=${ret% }
		# 0 is a null pointer constant for pointer parameters, 0 otherwise.
		args=0
		for ((i = 1; i < nargs; i++)); do args+=', 0'; done
		printf '\tcase %d:\n' "$n"
		case $ret in
		void) printf '\t\t%s(%s);\n\t\treturn 0;\n' "$name" "$args" ;;
		'enum bino_error')
			printf '\t\treturn %s(%s) != BINO_ERROR_INVALID_ARGUMENT;\n' "$name" "$args" ;;
		*'*') printf '\t\treturn %s(%s) != NULL;\n' "$name" "$args" ;;
		struct*)
			printf '\t{\n\t\t%s v = %s(%s), zero;\n' "$ret" "$name" "$args"
			printf '\t\tmemset(&zero, 0, sizeof(zero));\n'
			printf '\t\treturn memcmp(&v, &zero, sizeof(v)) != 0;\n\t}\n' ;;
		*) printf '\t\treturn %s(%s) != 0;\n' "$name" "$args" ;;
		esac
		names+=("$name")
		n=$((n + 1))
	done <"$TMP/protos"
	printf '\t}\n\treturn 1;\n}\n\n'
	printf 'static const char *const names[] = {\n'
	printf '\t"%s",\n' "${names[@]}"
	printf '};\n\nint main(void)\n{\n\tint failures = 0;\n\n'
	printf '\tfor (int n = 0; n < (int)(sizeof(names) / sizeof(*names)); n++) {\n'
	printf '\t\tint status;\n\t\tpid_t pid = fork();\n\n'
	printf '\t\tif (pid == 0)\n\t\t\t_exit(call(n));\n'
	printf '\t\tif (pid < 0 || waitpid(pid, &status, 0) != pid)\n\t\t\treturn 2;\n'
	printf '\t\tif (WIFSIGNALED(status))\n'
	printf '\t\t\tfprintf(stderr, "%%s(NULL, ...): killed by signal %%d\\n", names[n], WTERMSIG(status));\n'
	printf '\t\telse if (WEXITSTATUS(status) != 0)\n'
	printf '\t\t\tfprintf(stderr, "%%s(NULL, ...): not BINO_ERROR_INVALID_ARGUMENT, NULL or 0\\n", names[n]);\n'
	printf '\t\tfailures += !WIFEXITED(status) || WEXITSTATUS(status) != 0;\n\t}\n'
	printf '\treturn failures != 0;\n}\n'
} >"$TMP/null_calls.c"

# shellcheck disable=SC2086 # CC may be "ccache cc"; SANITIZE_FLAGS several words
$CC -std=gnu11 -Wall -Wno-nonnull -I "$(dirname "$HEADER")" -o "$TMP/null_calls" "$TMP/null_calls.c" \
	-L "$LIBDIR" -Wl,-rpath,"$LIBDIR" -lbtrfsino ${SANITIZE_FLAGS:-} ||
	fail "the generated calls do not compile ($TMP/null_calls.c)"
rc=0
"$TMP/null_calls" || rc=$?
[[ $rc == 0 ]] || fail "some functions break the NULL rule (exit status $rc)"
printf '%s: ok (%d functions)\n' "$TEST_NAME" "$(wc -l <"$TMP/protos")"
