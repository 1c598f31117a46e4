#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# audit --format prometheus of paths holding a tab, a backslash, a newline,
# a double quote and an é, and of one with a byte that is not UTF-8:
# promtool check metrics accepts the file, and each path label, decoded as
# the text exposition format says (\\ \" \n, nothing else), is the path
# itself when it is UTF-8, and otherwise the path escaped as the man page
# says the text report escapes it (\n \t \\ and \xHH for control bytes and
# bytes that are not UTF-8), which the decoder below computes on its own.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
command -v promtool >/dev/null || skip_or_fail "needs promtool (Debian package prometheus)"
command -v python3 >/dev/null || skip_or_fail "needs python3"

there=$TMP/$'t\tb\\s\nn"qcaf\xc3\xa9'
latin1=$TMP/$'\xffcaf\xe9\tb\\'
gone=$TMP/$'gone\\"x\ty'
mkdir -- "$there" "$latin1"
touch -- "$there/f" "$latin1/f"
run audit --format prometheus --exports /dev/null "$there" "$latin1" "$gone"
[ "$RC" -lt 2 ] || fail "exit status $RC: $(cat "$ERR")"
promtool check metrics <"$OUT" >"$TMP/promtool" 2>&1 ||
	fail "promtool check metrics: $(cat "$TMP/promtool")"

# Every distinct path label decoded, and the paths as the labels must give
# them, one per line as a Python list, whose repr() keeps the comparison
# unambiguous.
python3 - "$OUT" "$there" "$latin1" "$gone" >"$TMP/compare" <<'PY'
import os, re, sys

def decode_label(value):
    out, i = [], 0
    while i < len(value):
        c = value[i]
        if c == "\\":
            nxt = value[i + 1]
            if nxt not in '\\"n':
                sys.exit("invalid escape \\%s in %r" % (nxt, value))
            out.append("\n" if nxt == "n" else nxt)
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)

def text_escape(path):
    out, i = [], 0
    while i < len(path):
        b = path[i]
        if b >= 0x80:
            for n in (4, 3, 2):
                try:
                    out.append(path[i:i + n].decode("utf-8"))
                except UnicodeDecodeError:
                    continue
                i += n
                break
            else:
                out.append("\\x%02x" % b)
                i += 1
            continue
        out.append({0x5c: "\\\\", 0x0a: "\\n", 0x09: "\\t"}.get(b) or
                   (chr(b) if 0x20 <= b < 0x7f else "\\x%02x" % b))
        i += 1
    return "".join(out)

text = open(sys.argv[1], encoding="utf-8").read()
labels = set(decode_label(v) for v in
             re.findall(r'[{,]path="((?:[^"\\\n]|\\.)*)"', text))
print("labels", sorted(labels))
def expected(path):
    try:
        return path.decode("utf-8")
    except UnicodeDecodeError:
        return text_escape(path)

paths = [expected(os.fsencode(p)) for p in sys.argv[2:]]
print("paths ", sorted(paths))
PY
check_eq "the decoded path labels are the paths (escaped when not UTF-8)" \
	"$(sed -n 's/^paths  //p' "$TMP/compare")" "$(sed -n 's/^labels //p' "$TMP/compare")"
