/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Text and JSON Lines from the same calls.  JSON records are built with
 * json-c and written as one line each through the stream's buffer, so output
 * is streamed, never held for the whole walk.
 */
#include "output.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "escape.h"

struct output {
	enum output_format format;
	FILE *stream;
	json_object *record;
	bool failed;
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
	free(out);
}

enum output_format output_format(const struct output *out)
{
	return out->format;
}

void output_begin(struct output *out)
{
	if (out->format != OUTPUT_JSON)
		return;
	json_object_put(out->record);
	out->record = json_object_new_object();
	if (!out->record)
		out->failed = true;
}

int output_end(struct output *out)
{
	if (out->format == OUTPUT_JSON) {
		const char *line;

		if (!out->record)
			goto out_failed;
		line = json_object_to_json_string_ext(
			out->record,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
		if (!line)
			goto out_failed;
		fputs(line, out->stream);
		json_object_put(out->record);
		out->record = NULL;
	}
	fputc('\n', out->stream);
	if (ferror(out->stream) || out->failed)
		return -1;
	return 0;

out_failed:
	out->failed = false;
	errno = ENOMEM;
	return -1;
}

static bool wants_text(const struct output *out, enum print_where where)
{
	return out->format == OUTPUT_TEXT && where != PRINT_JSON;
}

static bool wants_json(const struct output *out, enum print_where where)
{
	return out->format == OUTPUT_JSON && where != PRINT_TEXT && out->record;
}

static void json_add(struct output *out, const char *key, json_object *value)
{
	if (!value || json_object_object_add(out->record, key, value) != 0) {
		json_object_put(value);
		out->failed = true;
	}
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
	if (wants_json(out, where))
		json_add(out, key,
			 value ? json_object_new_string(value) : json_object_new_null());
}

void print_u64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, uint64_t value)
{
	if (wants_text(out, where) && text_fmt)
		text_printf(out, text_fmt, value);
	if (wants_json(out, where))
		json_add(out, key, json_object_new_uint64(value));
}

void print_i64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, int64_t value)
{
	if (wants_text(out, where) && text_fmt)
		text_printf(out, text_fmt, value);
	if (wants_json(out, where))
		json_add(out, key, json_object_new_int64(value));
}

void print_bool(struct output *out, enum print_where where, const char *key,
		const char *text_fmt, bool value)
{
	if (wants_text(out, where) && text_fmt)
		text_printf(out, text_fmt, value ? "yes" : "no");
	if (wants_json(out, where))
		json_add(out, key, json_object_new_boolean(value));
}

void print_dev(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, uint64_t dev)
{
	char text[32];

	snprintf(text, sizeof(text), "%u:%u", major(dev), minor(dev));
	print_string(out, where, key, text_fmt, text);
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
	json_add(out, raw_key, json_object_new_string(encoded));
	free(encoded);
}

void print_path(struct output *out, enum print_where where, const char *key,
		const char *text_fmt, const char *path, size_t len)
{
	if (wants_text(out, where) && text_fmt) {
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

		if (utf8_valid(path, len)) {
			json_add(out, key, json_object_new_string_len(path, (int)len));
			return;
		}
		clean = utf8_sanitize(path, len);
		if (!clean) {
			out->failed = true;
			return;
		}
		json_add(out, key, json_object_new_string(clean));
		free(clean);
		json_add_base64(out, key, path, len);
	}
}
