/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The differential test's reader on our side: each FILE read with
 * bino_exports_add_file(), printed in the format oracle.c prints
 * nfs-utils' getexportent() in, so that the two outputs can be compared.
 */
#include "btrfsino.h"
#include "print.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names exportfs gives the security flavours, as flav_map[] numbers them. */
static int flavor_number(const char *name, size_t n)
{
	static const struct {
		const char *name;
		int number;
	} flavors[] = {
		{ "krb5", 390003 }, { "krb5i", 390004 }, { "krb5p", 390005 },
		{ "unix", 1 }, { "sys", 1 }, { "null", 0 }, { "none", 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(flavors) / sizeof(flavors[0]); i++) {
		if (strlen(flavors[i].name) == n &&
		    memcmp(flavors[i].name, name, n) == 0)
			return flavors[i].number;
	}
	return -1;
}

/* The sec= flavours of @options, each number once, first name kept. */
static void put_flavors(const char *options)
{
	int seen[16];
	size_t n_seen = 0;
	const char *opt = options;
	bool any = false;

	while (*opt) {
		size_t length = strcspn(opt, ",");

		if (length > 4 && strncmp(opt, "sec=", 4) == 0) {
			const char *f = opt + 4;
			const char *end = opt + length;

			while (f <= end) {
				size_t k = strcspn(f, ":,");
				int number = flavor_number(f, k);
				size_t i;
				bool dup = false;

				for (i = 0; i < n_seen; i++)
					dup = dup || seen[i] == number;
				if (!dup && n_seen < 16) {
					seen[n_seen++] = number;
					printf("%s%.*s", any ? ":" : "", (int)k, f);
					any = true;
				}
				f += k + 1;
			}
		}
		opt += length + (opt[length] == ',');
	}
	if (!any)
		putchar('-');
}

/* Whether @value is what exportfs stores as a number (e_fsid). */
static bool fsid_is_number(const char *value, size_t n)
{
	char copy[64];
	char *end;

	if (n == 4 && strncmp(value, "root", 4) == 0)
		return true;
	if (n == 0 || n >= sizeof(copy))
		return false;
	memcpy(copy, value, n);
	copy[n] = '\0';
	(void)strtoul(copy, &end, 0);
	return !*end;
}

/*
 * The fsid as exportfs keeps it: a number (e_fsid) and a UUID (e_uuid) are
 * kept apart, so "fsid=1,fsid=<uuid>" sets "both"; we keep the last value.
 */
static void put_fsid(const char *fsid, const char *options)
{
	bool number = false;
	bool uuid = false;
	const char *opt = options;
	char *end;
	unsigned long value;

	while (*opt) {
		size_t length = strcspn(opt, ",");

		if (length > 5 && strncmp(opt, "fsid=", 5) == 0) {
			if (fsid_is_number(opt + 5, length - 5))
				number = true;
			else
				uuid = true;
		}
		opt += length + (opt[length] == ',');
	}
	if (!fsid) {
		putchar('-');
	} else if (number && uuid) {
		printf("both");
	} else if (strcmp(fsid, "root") == 0) {
		printf("num=0");
	} else {
		value = strtoul(fsid, &end, 0);
		if (*fsid && !*end) {
			printf("num=%d", (int)value);
		} else {
			printf("uuid=");
			put_field(fsid);
		}
	}
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		struct bino_exports *exports;
		enum bino_error ret;
		size_t k;

		if (bino_exports_create(&exports) != BINO_OK)
			return 2;
		ret = bino_exports_add_file(exports, argv[i], NULL);
		if (ret != BINO_OK && ret != BINO_ERROR_EXPORTS_SYNTAX) {
			fprintf(stderr, "%s: %s\n", argv[i], bino_strerror(ret));
			return 2;
		}
		printf("file %s\n", argv[i]);
		for (k = 0; k < bino_exports_count(exports); k++) {
			const struct bino_export *e = bino_exports_get(exports, k);
			int flags = bino_export_flags(e);

			put_field(bino_export_path(e));
			putchar('\t');
			put_field(bino_export_client(e));
			printf("\t%s%s%s%s\t", flags & BINO_EXPORT_RO ? "ro" : "rw",
			       flags & BINO_EXPORT_CROSSMNT ? ",crossmnt" : "",
			       flags & BINO_EXPORT_NOHIDE ? ",nohide" : "",
			       flags & BINO_EXPORT_SUBTREE_CHECK ?
				       ",subtree_check" : "");
			put_fsid(bino_export_fsid(e), bino_export_options(e));
			putchar('\t');
			put_flavors(bino_export_options(e));
			putchar('\n');
		}
		printf("end %s\n", ret == BINO_OK ? "eof" : "stopped");
		bino_exports_destroy(exports);
	}
	return 0;
}
