/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for the exports(5) parser: any bytes in, and whatever
 * comes out must keep the API's promises.  Build:
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iinclude \
 *     -Ilib/util -Ilib/base -Ilib/tables -DBINO_VERSION_STRING='"0"' \
 *     lib/tables/exports.c lib/tables/exports_lex.c \
 *     lib/tables/exports_options.c lib/base/error.c \
 *     tests/fuzz/fuzz_exports.c -o fuzz_exports
 *   ./fuzz_exports tests/fuzz/seeds/exports
 */
#include "btrfsino.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define ALL_FLAGS                                                       \
	(BINO_EXPORT_CROSSMNT | BINO_EXPORT_NOHIDE |                    \
	 BINO_EXPORT_SUBTREE_CHECK | BINO_EXPORT_RO | BINO_EXPORT_FSID)

#define CHECK(cond)                                                     \
	do {                                                            \
		if (!(cond))                                            \
			abort();                                        \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The length of each physical line, to bound error positions. */
static size_t line_length(const uint8_t *data, size_t size, unsigned int line)
{
	size_t start = 0;
	size_t end;

	while (--line) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);

		CHECK(nl);
		start = (size_t)(nl - data) + 1;
	}
	for (end = start; end < size && data[end] != '\n'; end++)
		;
	return end - start;
}

static unsigned int count_lines(const uint8_t *data, size_t size)
{
	unsigned int lines = 1;
	size_t i;

	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	return lines;
}

static void check_export(const struct bino_export *e, unsigned int lines)
{
	const char *path = bino_export_path(e);
	const char *client = bino_export_client(e);
	const char *options = bino_export_options(e);
	const char *fsid = bino_export_fsid(e);
	int flags = bino_export_flags(e);

	CHECK(path && path[0] == '/');
	CHECK(client && client[0]);
	CHECK(options);
	CHECK(strcmp(bino_export_file(e), "fuzz") == 0);
	CHECK(bino_export_line(e) >= 1 && bino_export_line(e) <= lines);
	CHECK((flags & ~ALL_FLAGS) == 0);
	CHECK(!fsid == !(flags & BINO_EXPORT_FSID));
	if (fsid)
		CHECK(fsid[0] && strstr(options, fsid));
	/* Options are joined by single commas: none empty. */
	CHECK(options[0] != ',' && !strstr(options, ",,"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	unsigned int lines = count_lines(data, size);
	struct bino_exports *exports;
	struct bino_syntax_error err;
	enum bino_error ret;
	size_t count;
	size_t i;

	if (bino_exports_create(&exports) != BINO_OK)
		return 0;
	ret = bino_exports_add_buffer(exports, "fuzz", text, size, &err);
	CHECK(ret == BINO_OK || ret == BINO_ERROR_EXPORTS_SYNTAX ||
	      ret == BINO_ERROR_NO_MEMORY);
	count = bino_exports_count(exports);
	if (ret == BINO_ERROR_EXPORTS_SYNTAX) {
		/* The entries before the error stay, and so does the error. */
		CHECK(bino_exports_error_count(exports) == 1);
		CHECK(memcmp(bino_exports_error(exports, 0), &err,
			     sizeof(err)) == 0);
		for (i = 0; i < count; i++)
			check_export(bino_exports_get(exports, i), lines);
		CHECK(strcmp(err.file, "fuzz") == 0);
		CHECK(err.message[0]);
		CHECK(err.line >= 1 && err.line <= lines);
		CHECK(err.column >= 1 &&
		      err.column <= line_length(data, size, err.line) + 1);
		CHECK(err.column <= BINO_EXPORTS_LINE_MAX + 1);
	}
	for (i = 0; i < bino_exports_warning_count(exports); i++) {
		const struct bino_syntax_error *w = bino_exports_warning(exports, i);

		CHECK(w->message[0] && w->line >= 1 && w->line <= lines);
	}
	if (ret == BINO_OK) {
		CHECK(bino_exports_error_count(exports) == 0);
		for (i = 0; i < count; i++)
			check_export(bino_exports_get(exports, i), lines);
		CHECK(!bino_exports_get(exports, count));
		/* Parsing is deterministic and appends in order. */
		ret = bino_exports_add_buffer(exports, "fuzz", text, size, NULL);
		if (ret == BINO_OK) {
			CHECK(bino_exports_count(exports) == 2 * count);
			for (i = 0; i < count; i++) {
				const struct bino_export *a =
					bino_exports_get(exports, i);
				const struct bino_export *b =
					bino_exports_get(exports, count + i);

				CHECK(strcmp(bino_export_path(a),
					     bino_export_path(b)) == 0);
				CHECK(strcmp(bino_export_options(a),
					     bino_export_options(b)) == 0);
				CHECK(bino_export_flags(a) ==
				      bino_export_flags(b));
			}
		}
	}
	bino_exports_destroy(exports);
	return 0;
}
