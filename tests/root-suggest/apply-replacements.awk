# SPDX-License-Identifier: LGPL-2.1-or-later
# awk -v file=FILE -f apply-replacements.awk BLOCK FILE: FILE as it reads
# after doing what BLOCK (an exports block of btrfs-ino suggest) says: each
# "# replace line N of F with" or "# replace lines N-M of F with" comment
# replaces those lines of FILE (F must be FILE) by the line after the
# comment.  Prints the result; a comment naming another file is an error.
# Used by the root suggest tests and, in the NFS VM, by live-table.sh.
FNR == NR {
	if (want) {
		text[first] = $0
		want = 0
		next
	}
	if (match($0, /^# replace lines? [0-9]+(-[0-9]+)? of /)) {
		range = $4
		if ($0 != "# replace " $3 " " range " of " file " with") {
			print "bad instruction: " $0 > "/dev/stderr"
			exit 1
		}
		first = range + 0
		last = index(range, "-") ? substr(range, index(range, "-") + 1) + 0 : first
		for (i = first; i <= last; i++)
			gone[i] = 1
		want = 1
	}
	next
}
FNR in text { print text[FNR] }
!(FNR in gone) { print }
