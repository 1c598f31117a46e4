# SPDX-License-Identifier: LGPL-2.1-or-later
# The command lines a reader is shown, as they would type them, so that a test
# can run each one verbatim.  Prints one record per command, NUL-terminated:
# "FILE:LINE" TAB the command (its continuation lines kept, joined by newlines).
#   README.md: every line of a ```sh block, and in a ```text block (a
#   transcript) a line after a prompt ("# ", "$ ", "client# ", "server# ");
#   man pages: inside .EX/.EE, a line after a prompt ("# ", "$ ", "client# ",
#   "server# "), the prompt removed, roff escapes decoded.
# A line ending in "|" or "\", or inside a quote, continues on the next.
function flush() {
	if (cmd != "")
		printf "%s:%d\t%s%c", FILENAME, cmd_line, cmd, 0
	cmd = ""
}
function roff(s) {
	gsub(/\\-/, "-", s)
	gsub(/\\\(aq/, "'", s)
	gsub(/\\\(dq/, "\"", s)
	gsub(/\\&/, "", s)
	gsub(/\\e/, "\\", s)
	return s
}
function add(s, continues) {
	if (cmd == "") {
		cmd = s
		cmd_line = FNR
	} else {
		cmd = cmd "\n" s
	}
	if (!continues)
		flush()
}
# prompted(LINE): a command when LINE starts with a prompt (continuing one).
function prompted(line) {
	if (cmd != "") {
		add(line, continued(line))
	} else if (match(line, /^(client|server)?[#$] [a-z.\/]/)) {
		sub(/^(client|server)?[#$] /, "", line)
		add(line, continued(line))
	}
}
function continued(s,   all, quotes) {
	all = (cmd == "" ? s : cmd "\n" s)
	quotes = gsub(/'/, "'", all)
	return s ~ /(\||\\)[ \t]*$/ || quotes % 2 == 1
}
FNR == 1 { flush(); in_sh = 0; in_text = 0; in_ex = 0; man = FILENAME ~ /\.[0-9]$/ }
# Markdown
!man && /^```sh[ \t]*$/ { in_sh = 1; next }
!man && in_sh && /^```/ { flush(); in_sh = 0; next }
!man && in_sh { if ($0 != "" || cmd != "") add($0, continued($0)); next }
!man && /^```text[ \t]*$/ { in_text = 1; next }
!man && in_text && /^```/ { flush(); in_text = 0; next }
!man && in_text { prompted($0); next }
# roff
man && /^\.EX/ { in_ex = 1; next }
man && /^\.EE/ { flush(); in_ex = 0; next }
man && in_ex {
	line = roff($0)
	if (cmd != "") { add(line, continued(line)); next }
	prompted(line)
	next
}
END { flush() }
