/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text and JSON Lines from the same calls.
 *
 * A JSON record starts flat: its fields are written straight into a line
 * buffer as JSON text, which is what a walk's million records need (building
 * a json-c object per record and serialising it was most of the cost of
 * walk --json).  Strings still go through json-c's escaping whenever they
 * hold a byte it would escape; the rest it would copy unchanged, so they are
 * copied here.  A record that opens an object or array becomes a json-c
 * document: the flat part is parsed back into an object and the rest is
 * built with json-c, for the one-document commands.  Either way a record
 * is written as one line through the stream's buffer: output is streamed,
 * never held for the whole walk.
 */
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "array.h"
#include "escape.h"

#define OUTPUT_NESTING_MAX 16

struct output {
	enum output_format format;
	FILE *stream;
	bool failed;
	/* The flat record as JSON text, without its closing brace. */
	char *line;
	size_t line_len;
	size_t line_cap;
	size_t n_fields;
	/* The record as a json-c document once it nests; NULL while flat. */
	json_object *record;
	/* Objects and arrays opened inside the record; the last is current. */
	json_object *nested[OUTPUT_NESTING_MAX];
	int depth;
	/* A string reused to have json-c escape the strings that need it. */
	json_object *escaper;
	/* The last device formatted: a walk meets few, one after another. */
	uint64_t last_dev;
	char last_dev_text[32];
};

struct output *output_create(enum output_format format, FILE *stream)
{
	struct output *out = calloc(1, sizeof(*out));

	if (!out)
		return NULL;
	out->format = format;
	out->stream = stream;
	return out;
}

void output_destroy(struct output *out)
{
	if (!out)
		return;
	json_object_put(out->record);
	json_object_put(out->escaper);
	free(out->line);
	free(out);
}

enum output_format output_format(const struct output *out)
{
	return out->format;
}

/* ---- the flat record ---------------------------------------------------- */

static bool line_reserve(struct output *out, size_t extra)
{
	if (extra > SIZE_MAX - out->line_len ||
	    ARRAY_RESERVE(out->line, out->line_cap, out->line_len + extra) != 0) {
		out->failed = true;
		return false;
	}
	return true;
}

static void line_append(struct output *out, const char *bytes, size_t len)
{
	if (!line_reserve(out, len))
		return;
	memcpy(out->line + out->line_len, bytes, len);
	out->line_len += len;
}

/*
 * Whether json-c would write @len bytes at @s unchanged between the quotes:
 * it escapes '"', '\\' and control characters (and '/', which
 * JSON_C_TO_STRING_NOSLASHESCAPE turns off), nothing else.
 */
static bool json_plain(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] == '"' || p[i] == '\\')
			return false;
	}
	return true;
}

/* Whether every byte is printable ASCII other than '"' and '\\'. */
static bool ascii_printable(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	for (i = 0; i < len; i++) {
		if (p[i] < 0x20 || p[i] > 0x7e || p[i] == '"' || p[i] == '\\')
			return false;
	}
	return true;
}

/* Append @s quoted as it is: json_plain(@s) holds. */
static void line_append_string_plain(struct output *out, const char *s,
				     size_t len)
{
	if (!line_reserve(out, len + 2))
		return;
	out->line[out->line_len++] = '"';
	memcpy(out->line + out->line_len, s, len);
	out->line_len += len;
	out->line[out->line_len++] = '"';
}

static void line_append_string(struct output *out, const char *s, size_t len)
{
	const char *escaped;
	size_t escaped_len;

	if (json_plain(s, len)) {
		line_append_string_plain(out, s, len);
		return;
	}
	if (!out->escaper)
		out->escaper = json_object_new_string("");
	if (!out->escaper || !json_object_set_string_len(out->escaper, s, (int)len)) {
		out->failed = true;
		return;
	}
	escaped = json_object_to_json_string_length(
		out->escaper, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE,
		&escaped_len);
	if (!escaped) {
		out->failed = true;
		return;
	}
	line_append(out, escaped, escaped_len);
}

/*
 * Start the next field of the flat record: a comma and the quoted key.  Keys
 * are this program's own snake_case literals: nothing in them to escape.
 */
static void line_append_key(struct output *out, const char *key)
{
	size_t len = strlen(key);

	if (!line_reserve(out, len + 4))
		return;
	if (out->n_fields++ > 0)
		out->line[out->line_len++] = ',';
	out->line[out->line_len++] = '"';
	memcpy(out->line + out->line_len, key, len);
	out->line_len += len;
	out->line[out->line_len++] = '"';
	out->line[out->line_len++] = ':';
}

static void line_append_u64(struct output *out, uint64_t value)
{
	char digits[20];
	size_t n = 0;

	do {
		digits[sizeof(digits) - ++n] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	line_append(out, digits + sizeof(digits) - n, n);
}

static void line_append_i64(struct output *out, int64_t value)
{
	if (value < 0) {
		line_append(out, "-", 1);
		line_append_u64(out, -(uint64_t)value);
	} else {
		line_append_u64(out, (uint64_t)value);
	}
}

/* ---- records ------------------------------------------------------------ */

int memstream_close(FILE *f, char **text)
{
	if (fclose(f) == 0 && *text)
		return 0;
	free(*text);
	*text = NULL;
	errno = ENOMEM;
	return -1;
}

void output_begin(struct output *out)
{
	if (out->format != OUTPUT_JSON)
		return;
	out->depth = 0;
	out->n_fields = 0;
	out->line_len = 0;
	line_append(out, "{", 1);
}

/*
 * -1 with errno set for a write that failed: the write's own errno, or EIO
 * when the stream's error flag was set by an earlier write whose errno is
 * gone (errno was cleared before these writes).
 */
static int output_write_failed(void)
{
	if (!errno)
		errno = EIO;
	return -1;
}

int output_end(struct output *out)
{
	bool failed;

	if (out->format == OUTPUT_JSON && !out->record) {
		/*
		 * One write of the whole line, without stdio's lock: the
		 * stream is this thread's, and a walk writes a line an entry.
		 */
		line_append(out, "}\n", 2);
		failed = out->failed;
		out->failed = false;
		if (failed) {
			errno = ENOMEM;
			return -1;
		}
		errno = 0; /* what ferror() finds is this write's (cli.h) */
		fwrite_unlocked(out->line, 1, out->line_len, out->stream);
		return ferror_unlocked(out->stream) ? output_write_failed() : 0;
	}
	errno = 0; /* what ferror() finds is these writes' (cli.h) */
	if (out->format == OUTPUT_JSON) {
		const char *text = json_object_to_json_string_ext(
			out->record,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

		if (text)
			fputs(text, out->stream);
		else
			out->failed = true;
		json_object_put(out->record);
		out->record = NULL;
		out->depth = 0;
	}
	failed = out->failed;
	out->failed = false;
	/* A JSON record that failed is not written at all, not in part. */
	if (!failed || out->format == OUTPUT_TEXT)
		fputc('\n', out->stream);
	if (failed) {
		errno = ENOMEM;
		return -1;
	}
	return ferror(out->stream) ? output_write_failed() : 0;
}

/* ---- the record as a json-c document ------------------------------------ */

/* Turn the flat record into a json-c object, once it nests. */
static bool record_to_document(struct output *out)
{
	if (out->record)
		return true;
	line_append(out, "}", 2); /* with its NUL, for the parser */
	if (out->failed)
		return false;
	out->record = json_tokener_parse(out->line);
	out->line_len -= 2;
	if (!out->record)
		out->failed = true;
	return out->record != NULL;
}

/* Add to the innermost open object or array (@key is unused in arrays). */
static void json_add(struct output *out, const char *key, json_object *value)
{
	json_object *into = out->depth ? out->nested[out->depth - 1] : out->record;
	int err;

	if (json_object_is_type(into, json_type_array))
		err = json_object_array_add(into, value);
	else
		err = json_object_object_add(into, key, value);
	if (err != 0) {
		json_object_put(value);
		out->failed = true;
	}
}

static bool wants_text(const struct output *out, enum print_where where)
{
	return out->format == OUTPUT_TEXT && where != PRINT_JSON;
}

static bool wants_json(const struct output *out, enum print_where where)
{
	return out->format == OUTPUT_JSON && where != PRINT_TEXT;
}

/* Fields go to the flat record while it is flat, else to the document. */
static bool json_is_flat(const struct output *out)
{
	return !out->record;
}

/* Add a value just made; NULL means making it failed (JSON null is not). */
static void json_add_made(struct output *out, const char *key,
			  json_object *value)
{
	if (!value) {
		out->failed = true;
		return;
	}
	json_add(out, key, value);
}

static void output_open(struct output *out, const char *key,
			json_object *value)
{
	if (!value || out->depth >= OUTPUT_NESTING_MAX ||
	    !record_to_document(out)) {
		json_object_put(value);
		out->failed = true;
		return;
	}
	json_add(out, key, json_object_get(value));
	out->nested[out->depth++] = value;
}

void output_open_object(struct output *out, const char *key)
{
	if (wants_json(out, PRINT_JSON))
		output_open(out, key, json_object_new_object());
}

void output_open_array(struct output *out, const char *key)
{
	if (wants_json(out, PRINT_JSON))
		output_open(out, key, json_object_new_array());
}

void output_close(struct output *out)
{
	if (wants_json(out, PRINT_JSON) && out->depth > 0)
		json_object_put(out->nested[--out->depth]);
}

/* ---- values, flat or in the document ----------------------------------- */

static void json_set_string(struct output *out, const char *key,
			    const char *text, size_t len)
{
	if (json_is_flat(out)) {
		line_append_key(out, key);
		line_append_string(out, text, len);
		return;
	}
	json_add_made(out, key, json_object_new_string_len(text, (int)len));
}

static void json_set_null(struct output *out, const char *key)
{
	if (json_is_flat(out)) {
		line_append_key(out, key);
		line_append(out, "null", 4);
		return;
	}
	json_add(out, key, NULL); /* json-c's null */
}

/* A number of either signedness: print_u64()'s and print_i64()'s one path. */
struct number {
	bool is_signed;
	uint64_t u;
	int64_t i;
};

static void json_set_number(struct output *out, const char *key,
			    struct number number)
{
	if (json_is_flat(out)) {
		line_append_key(out, key);
		if (number.is_signed)
			line_append_i64(out, number.i);
		else
			line_append_u64(out, number.u);
		return;
	}
	json_add_made(out, key, number.is_signed ? json_object_new_int64(number.i) :
						    json_object_new_uint64(number.u));
}

static void json_set_bool(struct output *out, const char *key, bool flag)
{
	if (json_is_flat(out)) {
		line_append_key(out, key);
		if (flag)
			line_append(out, "true", 4);
		else
			line_append(out, "false", 5);
		return;
	}
	json_add_made(out, key, json_object_new_boolean(flag));
}

/* printf through a caller-supplied format; the formats are ours. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void text_printf(struct output *out, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vfprintf(out->stream, fmt, args);
	va_end(args);
}
#pragma GCC diagnostic pop

void print_string(struct output *out, enum print_where where, const char *key,
		  const char *text_fmt, const char *value)
{
	if (wants_text(out, where) && text_fmt)
		text_printf(out, text_fmt, value ? value : "-");
	if (wants_json(out, where)) {
		if (value)
			json_set_string(out, key, value, strlen(value));
		else
			json_set_null(out, key);
	}
}

static void print_number(struct output *out, enum print_where where,
			 const char *key, const char *text_fmt, struct number number)
{
	if (wants_text(out, where) && text_fmt) {
		if (number.is_signed)
			text_printf(out, text_fmt, number.i);
		else
			text_printf(out, text_fmt, number.u);
	}
	if (wants_json(out, where))
		json_set_number(out, key, number);
}

void print_u64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, uint64_t value)
{
	print_number(out, where, key, text_fmt, (struct number){ .u = value });
}

void print_i64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, int64_t value)
{
	print_number(out, where, key, text_fmt,
		     (struct number){ .is_signed = true, .i = value });
}

void print_bool(struct output *out, enum print_where where, const char *key,
		const char *text_fmt, bool value)
{
	if (wants_text(out, where) && text_fmt)
		text_printf(out, text_fmt, value ? "yes" : "no");
	if (wants_json(out, where))
		json_set_bool(out, key, value);
}

void print_dev(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, uint64_t dev)
{
	if (dev != out->last_dev || !out->last_dev_text[0]) {
		snprintf(out->last_dev_text, sizeof(out->last_dev_text),
			 "%u:%u", major(dev), minor(dev));
		out->last_dev = dev;
	}
	print_string(out, where, key, text_fmt, out->last_dev_text);
}

/* The raw bytes of a string that was not valid UTF-8, as "KEY_base64". */
static void json_add_base64(struct output *out, const char *key,
			    const char *bytes, size_t len)
{
	char raw_key[64];
	char *encoded = base64_encode((const unsigned char *)bytes, len);

	if (!encoded) {
		out->failed = true;
		return;
	}
	snprintf(raw_key, sizeof(raw_key), "%s_base64", key);
	json_set_string(out, raw_key, encoded, strlen(encoded));
	free(encoded);
}

void print_path(struct output *out, enum print_where where, const char *key,
		const char *text_fmt, const char *path, size_t len)
{
	if (wants_text(out, where) && text_fmt && !text_needs_escape(path, len)) {
		text_printf(out, text_fmt, path);
	} else if (wants_text(out, where) && text_fmt) {
		char *escaped = text_escape(path, len);

		if (!escaped) {
			out->failed = true;
			return;
		}
		text_printf(out, text_fmt, escaped);
		free(escaped);
	}
	if (wants_json(out, where)) {
		char *clean;

		/* Printable ASCII: valid UTF-8, and json_plain() holds. */
		if (json_is_flat(out) && ascii_printable(path, len)) {
			line_append_key(out, key);
			line_append_string_plain(out, path, len);
			return;
		}
		if (utf8_valid(path, len)) {
			json_set_string(out, key, path, len);
			return;
		}
		clean = utf8_sanitize(path, len);
		if (!clean) {
			out->failed = true;
			return;
		}
		json_set_string(out, key, clean, strlen(clean));
		free(clean);
		json_add_base64(out, key, path, len);
	}
}
