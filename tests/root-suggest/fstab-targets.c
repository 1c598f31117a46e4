/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The mount points of an fstab(5) file as libmount reads them (the reader
 * mount -a and systemd's fstab generator use): each target, NUL-ended, on
 * standard output.  Exit 1 when libmount reports a line it cannot parse,
 * so a suggest test reads generated lines with the real reader, not a copy
 * of its rules.
 *
 * Usage: fstab-targets FILE
 */
#include <libmount.h>
#include <stdio.h>

static int parse_errors;

static int on_parse_error(struct libmnt_table *tab, const char *file, int line)
{
	(void)tab;
	fprintf(stderr, "fstab-targets: %s: parse error at line %d\n", file, line);
	parse_errors++;
	return 1; /* skip the line, read on */
}

int main(int argc, char **argv)
{
	struct libmnt_table *tab = mnt_new_table();
	struct libmnt_iter *itr = mnt_new_iter(MNT_ITER_FORWARD);
	struct libmnt_fs *fs;

	if (argc != 2 || !tab || !itr) {
		fputs("usage: fstab-targets FILE\n", stderr);
		return 2;
	}
	mnt_table_set_parser_errcb(tab, on_parse_error);
	if (mnt_table_parse_file(tab, argv[1]) != 0) {
		fprintf(stderr, "fstab-targets: %s: cannot read\n", argv[1]);
		return 1;
	}
	while (mnt_table_next_fs(tab, itr, &fs) == 0) {
		fputs(mnt_fs_get_target(fs), stdout);
		putchar('\0');
	}
	mnt_free_iter(itr);
	mnt_unref_table(tab);
	return parse_errors ? 1 : 0;
}
