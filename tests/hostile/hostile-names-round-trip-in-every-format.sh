#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Names with newline, tab, backslash, quotes, a leading dash, control bytes,
# bytes that are not UTF-8 (lone continuation and lead bytes, overlongs,
# surrogates, beyond U+10FFFF), text that looks like an escape ("\x41",
# "\n" spelled out) and one name holding every byte 0x01-0xff but '/':
#  - -0 prints each path byte for byte;
#  - text output is one line an entry and its escapes (only \\ \n \t \xHH)
#    decode to the bytes the test created;
#  - JSON "path" is valid UTF-8, "path_base64" is present exactly when the
#    bytes are not valid UTF-8 and decodes to them; otherwise "path" is them;
#  - a starting path with a leading dash is walked after "--".
# On btrfs and on tmpfs.
# shellcheck source=tests/hostile/lib.sh
source "$(dirname -- "$0")/lib.sh"
setup_scratch btrfs tmpfs

# make_names DIR: create the names under DIR; print every path created
# (DIR included), NUL-terminated.
make_names() {
	perl -e '
		use strict;
		my $top = shift;
		my @names = (
			"new\nline", "tab\there", "back\\slash", "\\", "\\\\",
			"quote\"d", "single\x27q", "-leading-dash", "--json", "-0",
			" leading space", "trailing space ", "\\x41", "\\n",
			"\\xzz", "\x01\x02\x1f\x7f", "bell\a", "esc\e[31mred",
			"ok-utf8-\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80",
			"lone-cont-\x80", "lone-lead-\xc3", "ff-\xff", "fe-\xfe",
			"overlong-\xc0\xaf", "overlong3-\xe0\x80\xaf",
			"surrogate-\xed\xa0\x80", "beyond-\xf4\x90\x80\x80",
			"truncated4-\xf0\x9f\x98", "latin1-caf\xe9",
			"c1-\xc2\x85-nel", "bom-\xef\xbb\xbf", "nbsp\xc2\xa0",
		);
		my $all = join "", map { chr } grep { $_ != 0x2f } 1 .. 255;
		push @names, $all;
		my @paths = ($top);
		for my $n (@names) {
			open(my $f, ">", "$top/$n") or die "$n: $!";
			close $f;
			push @paths, "$top/$n";
		}
		# The same names one level down, in a directory named by all bytes.
		my $dir = "$top/D$all";
		mkdir $dir or die "mkdir: $!";
		push @paths, $dir;
		for my $n (@names) {
			my $p = "$dir/d$n";
			mkdir $p or die "$p: $!";
			push @paths, $p;
		}
		print map { "$_\0" } @paths;
	' "$1"
}

# decode_text FILE: the paths of text output lines, unescaped, NUL-ended;
# fails on a line that is not "DEV SUBVOLID INO PATH" or on an escape that
# is not one of \\ \n \t \xHH.
decode_text() {
	perl -ne '
		chomp;
		/^\d+:\d+ \d+ \d+ (.*)$/s or die "not an entry line: $_\n";
		my $p = $1;
		my $out = "";
		while (length $p) {
			if ($p =~ s/^\\(.)//s) {
				my $c = $1;
				if ($c eq "\\") { $out .= "\\" }
				elsif ($c eq "n") { $out .= "\n" }
				elsif ($c eq "t") { $out .= "\t" }
				elsif ($c eq "x" && $p =~ s/^([0-9a-f]{2})//) { $out .= chr hex $1 }
				else { die "ambiguous escape \\$c in: $_\n" }
			} elsif ($p =~ s/^([^\\]+)//s) {
				$out .= $1;
			}
		}
		die "raw control byte in: $_\n" if /[\x00-\x08\x0a-\x1f\x7f]/;
		print "$out\0";
	' "$1"
}

# check_json_utf8 FILE: for each entry, path_base64 present iff its bytes
# are not valid UTF-8; prints the offending records.
check_json_utf8() {
	jq -r 'select(.event == "entry") |
		[(.path | @base64), (.path_base64 // "")] | @tsv' "$1" |
		perl -MMIME::Base64 -MEncode -ne '
			chomp;
			my ($p, $b) = split /\t/, $_, -1;
			my $path = decode_base64($p);
			if ($b eq "") {
				my $copy = $path;
				eval { Encode::decode("UTF-8", $copy, Encode::FB_CROAK); 1 }
					or print "no path_base64 for invalid UTF-8: $p\n";
				next;
			}
			my $raw = decode_base64($b);
			my $copy = $raw;
			eval { Encode::decode("UTF-8", $copy, Encode::FB_CROAK); 1 }
				and print "path_base64 for valid UTF-8: $b\n";
		'
}

for fs in $(scratch_fs); do
	label=$(fs_label "$fs")
	top=$fs/names
	mkdir -- "$top"
	make_names "$top" >"$OUT/$label.created"
	sorted0 "$OUT/$label.created" >"$OUT/$label.expected"
	n=$(tr -cd '\0' <"$OUT/$label.created" | wc -c)
	# find agrees with what was created (the fixture itself is right).
	find "$top" -print0 | LC_ALL=C sort -z >"$OUT/$label.find"
	check_files_eq "$label: find lists what was created" "$OUT/$label.expected" "$OUT/$label.find"

	run_cli "$label-print0" 60 walk -0 "$top"
	check_rc "$label-print0" 0
	sorted0 "$OUT/$label-print0" >"$OUT/$label-print0.sorted"
	check_files_eq "$label: -0 is byte-exact" "$OUT/$label.expected" "$OUT/$label-print0.sorted"

	run_cli "$label-text" 60 walk "$top"
	check_rc "$label-text" 0
	check_eq "$label: text lines (one per entry)" "$n" "$(wc -l <"$OUT/$label-text")"
	if decode_text "$OUT/$label-text" >"$OUT/$label-text.decoded" 2>"$OUT/$label-text.decode-err"; then
		sorted0 "$OUT/$label-text.decoded" >"$OUT/$label-text.sorted"
		check_files_eq "$label: text escapes decode to the names" "$OUT/$label.expected" "$OUT/$label-text.sorted"
	else
		fail "$label: text output does not decode: $(head -c 300 "$OUT/$label-text.decode-err")"
	fi

	run_cli "$label-json" 60 walk --json "$top"
	check_rc "$label-json" 0
	check_json "$label-json"
	json_paths "$OUT/$label-json" >"$OUT/$label-json.paths"
	sorted0 "$OUT/$label-json.paths" >"$OUT/$label-json.sorted"
	check_files_eq "$label: JSON round-trips every byte" "$OUT/$label.expected" "$OUT/$label-json.sorted"
	check_eq "$label: path_base64 exactly for invalid UTF-8" "" "$(check_json_utf8 "$OUT/$label-json" | head -5)"

	# A starting path with a leading dash, relative, after "--".
	(cd -- "$top" && timeout 30 "$BTRFS_INO" walk -0 -- -leading-dash >"$OUT/$label-dash") ||
		fail "$label: walk -- -leading-dash failed"
	check_eq "$label: walk -- -leading-dash" "-leading-dash" "$(tr -d '\0' <"$OUT/$label-dash")"
	echo "$label: $n hostile paths"
done

finish
