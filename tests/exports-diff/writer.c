/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Our exports(5) writer for the differential test (writer.sh): every path
 * "/srv/x\\" followed by up to four bytes of "0137489a \\" (a backslash
 * before octal digits, digits that are not octal, \3 and \34 and \340 and
 * \400, blanks and backslashes after them: what xgettok() decodes), each
 * quoted by quote_exports_path() as suggest writes it.  Writes ACCEPTED
 * (the paths quote_exports_refusal() accepts, one exports line each),
 * REFUSED (the others, quoted all the same) and prints each path, accepted
 * or refused, in print.h's form on stdout as "accepted PATH" or
 * "refused PATH".
 *
 * Usage: exports-diff-writer ACCEPTED REFUSED
 */
#include <stdio.h>
#include <string.h>

#include "print.h"
#include "quote.h"

static const char alphabet[] = "0137489a \\";

static void put(FILE *accepted, FILE *refused, const char *path)
{
	FILE *f = quote_exports_refusal(path) ? refused : accepted;

	quote_exports_path(f, path);
	fputs(" h(rw)\n", f);
	fputs(f == accepted ? "accepted " : "refused ", stdout);
	put_field(path);
	putchar('\n');
}

/* Every tail of @depth more bytes after @path (of @len bytes). */
static void put_all(FILE *accepted, FILE *refused, char *path, size_t len, int depth)
{
	size_t i;

	path[len] = '\0';
	put(accepted, refused, path);
	if (!depth)
		return;
	for (i = 0; i < sizeof(alphabet) - 1; i++) {
		path[len] = alphabet[i];
		put_all(accepted, refused, path, len + 1, depth - 1);
	}
}

int main(int argc, char **argv)
{
	char path[64] = "/srv/x\\";
	FILE *accepted, *refused;

	if (argc != 3) {
		fputs("usage: exports-diff-writer ACCEPTED REFUSED\n", stderr);
		return 2;
	}
	accepted = fopen(argv[1], "w");
	refused = fopen(argv[2], "w");
	if (!accepted || !refused)
		return 2;
	put_all(accepted, refused, path, strlen(path), 4);
	return fclose(accepted) || fclose(refused) ? 2 : 0;
}
