/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * One output layer for text and JSON Lines (iproute2's print_* manner): a
 * command describes each record once, with a text format and a JSON key per
 * field, so the two forms cannot drift apart.
 */
#ifndef BTRFS_INO_OUTPUT_H
#define BTRFS_INO_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum output_format {
	OUTPUT_TEXT,
	OUTPUT_JSON, /* one object per record, one record per line */
};

/* Which forms a field appears in. */
enum print_where {
	PRINT_ANY,
	PRINT_JSON,
	PRINT_TEXT,
};

struct output;

/* Returns NULL with errno set (out of memory).  @stream is borrowed. */
/*
 * Close @f, an open_memstream() of *@text: 0 when the text is whole, else
 * -1 with errno ENOMEM and *@text NULL (freed).  glibc's fclose() returns 0
 * even when its last realloc failed and left *@text NULL, so a memory
 * stream is closed through this alone.
 */
int memstream_close(FILE *f, char **text);

struct output *output_create(enum output_format format, FILE *stream);
void output_destroy(struct output *out);
enum output_format output_format(const struct output *out);

/* Start and finish a record; text records end with a newline. */
void output_begin(struct output *out);
/*
 * Returns 0, or -1 with errno set: ENOMEM (a record not made), else the
 * write's, or EIO when the stream's error flag is an earlier write's
 * (errno is cleared before the writes: never a stale one).
 */
int output_end(struct output *out);

/*
 * Nested values inside a JSON record, for commands that write one document:
 * open an object or array under @key (NULL inside an array), add fields with
 * print_*() (their keys are ignored inside arrays), close it.  No-ops in
 * text output.  At most 16 levels.
 */
void output_open_object(struct output *out, const char *key);
void output_open_array(struct output *out, const char *key);
void output_close(struct output *out);

void print_string(struct output *out, enum print_where where, const char *key,
		  const char *text_fmt, const char *value);
void print_u64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, uint64_t value);
void print_i64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, int64_t value);
void print_bool(struct output *out, enum print_where where, const char *key,
		const char *text_fmt, bool value);
/* A device number: "MAJOR:MINOR" in both forms, as in mountinfo. */
void print_dev(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, uint64_t dev);
/*
 * A path of arbitrary bytes: text escapes it (text_escape); JSON writes
 * valid UTF-8 under @key and, if the bytes were not, the raw bytes in base64
 * under "@key_base64".  @path[@len] is a NUL, as bino_entry_path() gives.
 */
void print_path(struct output *out, enum print_where where, const char *key,
		const char *text_fmt, const char *path, size_t len);

#endif
