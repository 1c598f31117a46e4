/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Every name of up to three bytes of ALPHABET (what automount's readers
 * treat specially, and plain bytes around them) quoted by cli/support/quote.c as
 * suggest quotes its autofs map, for autofs-writer.sh to read back with
 * Debian's automount (autofs-oracle.c):
 *  - as a subvolume: offset "/NAME" with location "srv:/e/NAME", in
 *    entries "/kN -fstype=nfs / srv:/e" that hold as many as fit, when
 *    quote_autofs_refusal() takes "/e/NAME";
 *  - as the export: entry "/r/NAME -fstype=nfs / srv:/e/NAME /o
 *    srv:/e/NAME/o", when quote_autofs_root_refusal() and
 *    quote_autofs_key_refusal() take it; also for NAME of 252 and 253
 *    bytes (a key of 255 bytes, the most automount reads, and one more).
 * Writes the map to MAP and prints the mounts automount must read from it,
 * as autofs-oracle.c prints them, one "mount PATH<TAB>LOCATION" a line.
 *
 * Usage: autofs-writer MAP
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quote.h"

static const char alphabet[] = "a $&:\"\\#{}-/'%,=\xc3\xff";

static void put_field(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		if (*p <= 0x20 || *p >= 0x7f || *p == '\\')
			printf("\\%03o", *p);
		else
			putchar(*p);
	}
}

static void put_mount(const char *path, const char *location)
{
	fputs("mount ", stdout);
	put_field(path);
	putchar('\t');
	put_field(location);
	putchar('\n');
}

/* A path as btrfs can have it: no empty component, no trailing '/'. */
static bool path_like(const char *name)
{
	size_t len = strlen(name);

	return name[0] != '/' && !strstr(name, "//") && name[len - 1] != '/';
}

struct map {
	FILE *f;
	FILE *exports; /* the export entries, put after the others */
	unsigned entries;
	size_t used; /* bytes of the open entry, as automount reads them */
};

/* Begin entry "/kN" of subvolume offsets. */
static void entry_begin(struct map *m)
{
	char key[32];

	if (m->entries)
		fputc('\n', m->f);
	snprintf(key, sizeof(key), "/k%u", ++m->entries);
	fprintf(m->f, "%s -fstype=nfs / ", key);
	quote_autofs_location(m->f, "srv", "/e");
	m->used = strlen("-fstype=nfs / srv:/e");
	put_mount(key, "srv:/e");
}

static void subvolume(struct map *m, const char *name)
{
	char *path, *offset, *key, *text = NULL;
	size_t len = 0;
	FILE *t;

	if (asprintf(&path, "/e/%s", name) < 0 || asprintf(&offset, "/%s", name) < 0 ||
	    asprintf(&key, "/k%u/%s", m->entries, name) < 0)
		abort();
	if (quote_autofs_refusal(path))
		goto out;
	t = open_memstream(&text, &len);
	if (!t)
		abort();
	quote_autofs_path(t, offset);
	fputc(' ', t);
	quote_autofs_location(t, "srv", path);
	if (fclose(t) != 0)
		abort();
	if (quote_autofs_entry_refusal(m->used + 3 + len)) {
		entry_begin(m);
		free(key);
		if (asprintf(&key, "/k%u/%s", m->entries, name) < 0)
			abort();
	}
	fprintf(m->f, " \\\n\t%s", text);
	m->used += 2 + len;
	free(text);
	if (asprintf(&text, "srv:%s", path) < 0)
		abort();
	put_mount(key, text);
	free(text);
out:
	free(path);
	free(offset);
	free(key);
}

static void export(struct map *m, const char *name)
{
	char *path, *key, *sub, *loc;

	if (asprintf(&path, "/e/%s", name) < 0 || asprintf(&key, "/r/%s", name) < 0 ||
	    asprintf(&sub, "%s/o", path) < 0)
		abort();
	if (!quote_autofs_root_refusal(path) && !quote_autofs_key_refusal(key)) {
		quote_autofs_path(m->exports, key);
		fputs(" -fstype=nfs / ", m->exports);
		quote_autofs_location(m->exports, "srv", path);
		fputs(" /o ", m->exports);
		quote_autofs_location(m->exports, "srv", sub);
		fputc('\n', m->exports);
		if (asprintf(&loc, "srv:%s", path) < 0)
			abort();
		put_mount(key, loc);
		free(loc);
		free(key);
		if (asprintf(&key, "/r/%s/o", name) < 0 || asprintf(&loc, "srv:%s", sub) < 0)
			abort();
		put_mount(key, loc);
		free(loc);
	}
	free(path);
	free(key);
	free(sub);
}

int main(int argc, char **argv)
{
	struct map m = { 0 };
	char name[4] = "", *exports = NULL;
	size_t exports_len = 0;
	size_t n = strlen(alphabet), i, j, k;

	if (argc != 2) {
		fputs("usage: autofs-writer MAP\n", stderr);
		return 2;
	}
	m.f = fopen(argv[1], "w");
	m.exports = open_memstream(&exports, &exports_len);
	if (!m.f || !m.exports)
		return 2;
	entry_begin(&m);
	/* Names of one, two and three bytes: i, j, k index alphabet, n is none. */
	for (i = 0; i < n; i++) {
		for (j = 0; j <= n; j++) {
			for (k = 0; k <= (j < n ? n : 0); k++) {
				name[0] = alphabet[i];
				name[1] = j < n ? alphabet[j] : '\0';
				name[2] = k < n ? alphabet[k] : '\0';
				name[3] = '\0';
				if (!path_like(name))
					continue;
				subvolume(&m, name);
				export(&m, name);
			}
		}
	}
	/* Keys of 255 bytes (read) and 256 (refused: read_one() stops at 255). */
	for (i = 252; i <= 253; i++) {
		char *lengthy = malloc(i + 1);

		if (!lengthy)
			return 2;
		memset(lengthy, 'a', i);
		lengthy[i] = '\0';
		export(&m, lengthy);
		free(lengthy);
	}
	fputc('\n', m.f);
	if (fclose(m.exports) != 0)
		return 2;
	fputs(exports, m.f);
	free(exports);
	return fclose(m.f) ? 2 : 0;
}
