# SPDX-License-Identifier: LGPL-2.1-or-later
# What the documentation tests share: the commands the documents print, and the
# table (tests/docs/commands) of where each is run and what it must exit with.
# shellcheck shell=bash

docs_here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
docs_src=$(cd "$docs_here/../.." && pwd)

# documented_commands: each command README.md and man/btrfs-ino.1 print, once,
# NUL-terminated, in the order the documents give them.
documented_commands() {
	(cd "$docs_src" && awk -f "$docs_here/doc-commands.awk" README.md man/btrfs-ino.1) |
		awk -v RS='\0' -v ORS='\0' '{ sub(/^[^\t]*\t/, ""); if (!seen[$0]++) print }'
}

# where_documented COMMAND: the FILE:LINE places that print COMMAND.
where_documented() {
	(cd "$docs_src" && awk -f "$docs_here/doc-commands.awk" README.md man/btrfs-ino.1) |
		awk -v RS='\0' -v want="$1" '{ place = $0; sub(/\t.*/, "", place); sub(/^[^\t]*\t/, "")
			if ($0 == want) print place }'
}

# table_entries [WHERE]: the entries of tests/docs/commands (those run WHERE),
# NUL-terminated, as "WHERE" TAB "STATUS or reason" TAB COMMAND.
table_entries() {
	awk -v want="${1:-}" -v ORS='\0' '
		function flush() {
			if (cmd != "" && (want == "" || where == want))
				print where "\t" what "\t" cmd
			cmd = ""; where = ""
		}
		/^#/ && where == "" { next }
		/^$/ { flush(); next }
		where == "" { where = $1; what = $0; sub(/^[^ ]* */, "", what); next }
		{ cmd = (cmd == "" ? $0 : cmd "\n" $0) }
		END { flush() }
	' "$docs_here/commands"
}
