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

#define OUTPUT_NESTING_MAX 16
#define OUTPUT_FIELDS_MAX 64

struct output {
	enum output_format format;
	FILE *stream;
	json_object *record;
	bool failed;
	/* Objects and arrays opened inside the record; the last is current. */
	json_object *nested[OUTPUT_NESTING_MAX];
	int depth;
	/*
	 * A flat record is kept from line to line and its values updated in
	 * place: allocating every field of every entry anew was most of the
	 * cost of --json.  These are the values set for the current line.
	 */
	json_object *touched[OUTPUT_FIELDS_MAX];
	int n_touched;
	bool reusable;
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
	out->depth = 0;
	out->n_touched = 0;
	out->reusable = true;
	if (!out->record)
		out->record = json_object_new_object();
	if (!out->record)
		out->failed = true;
}

/* Drop the fields of the previous line that this one did not set. */
static void record_drop_untouched(struct output *out)
{
	const char *stale[OUTPUT_FIELDS_MAX];
	int n_stale = 0, i;

	if (json_object_object_length(out->record) == out->n_touched)
		return;
	json_object_object_foreach(out->record, key, value) {
		for (i = 0; i < out->n_touched; i++) {
			if (out->touched[i] == value)
				break;
		}
		if (i == out->n_touched && n_stale < OUTPUT_FIELDS_MAX)
			stale[n_stale++] = key;
	}
	for (i = 0; i < n_stale; i++)
		json_object_object_del(out->record, stale[i]);
}

int output_end(struct output *out)
{
	if (out->format == OUTPUT_JSON) {
		const char *line;

		if (!out->record)
			goto out_failed;
		if (out->reusable)
			record_drop_untouched(out);
		line = json_object_to_json_string_ext(
			out->record,
			JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);
		if (!line)
			goto out_failed;
		fputs(line, out->stream);
		if (!out->reusable) {
			json_object_put(out->record);
			out->record = NULL;
		}
		out->depth = 0;
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

static void json_add_value(struct output *out, json_object *into,
			   const char *key, json_object *value)
{
	int err;

	if (json_object_is_type(into, json_type_array))
		err = json_object_array_add(into, value);
	else
		err = json_object_object_add(into, key, value);
	if (err != 0) {
		json_object_put(value);
		out->failed = true;
		return;
	}
	if (into == out->record && value) {
		if (out->n_touched < OUTPUT_FIELDS_MAX)
			out->touched[out->n_touched++] = value;
		else
			out->reusable = false;
	}
}


/* Add to the innermost open object or array (@key is unused in arrays). */
static void json_add(struct output *out, const char *key, json_object *value)
{
	json_object *into = out->depth ? out->nested[out->depth - 1] : out->record;

	if (!value) {
		out->failed = true;
		return;
	}
	json_add_value(out, into, key, value);
}

/* JSON null is json-c's NULL, so it cannot go through json_add(). */
static void json_add_null(struct output *out, const char *key)
{
	json_add_value(out, out->depth ? out->nested[out->depth - 1] : out->record,
		       key, NULL);
}

/*
 * The value of @key in the flat record if it can be updated in place: the
 * same type, and no object or array open.  The value is marked as set.
 */
static json_object *record_reuse(struct output *out, const char *key,
				 enum json_type type)
{
	json_object *value;

	if (out->depth > 0 || !out->reusable ||
	    out->n_touched >= OUTPUT_FIELDS_MAX ||
	    !json_object_object_get_ex(out->record, key, &value) || !value ||
	    !json_object_is_type(value, type))
		return NULL;
	out->touched[out->n_touched++] = value;
	return value;
}

static void json_set_string(struct output *out, const char *key,
			    const char *text, size_t len)
{
	json_object *value = record_reuse(out, key, json_type_string);

	if (!value) {
		json_add(out, key, json_object_new_string_len(text, (int)len));
		return;
	}
	if (!json_object_set_string_len(value, text, (int)len))
		out->failed = true;
}

static void json_set_int64(struct output *out, const char *key, int64_t number)
{
	json_object *value = record_reuse(out, key, json_type_int);

	if (!value)
		json_add(out, key, json_object_new_int64(number));
	else
		json_object_set_int64(value, number);
}

static void json_set_uint64(struct output *out, const char *key,
			    uint64_t number)
{
	json_object *value = record_reuse(out, key, json_type_int);

	if (!value)
		json_add(out, key, json_object_new_uint64(number));
	else
		json_object_set_uint64(value, number);
}

static void json_set_bool(struct output *out, const char *key, bool flag)
{
	json_object *value = record_reuse(out, key, json_type_boolean);

	if (!value)
		json_add(out, key, json_object_new_boolean(flag));
	else
		json_object_set_boolean(value, flag);
}

static void output_open(struct output *out, const char *key,
			json_object *value)
{
	if (!value || out->depth >= OUTPUT_NESTING_MAX) {
		json_object_put(value);
		out->failed = true;
		return;
	}
	out->reusable = false;
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
			json_add_null(out, key);
	}
}

void print_u64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, uint64_t value)
{
	if (wants_text(out, where) && text_fmt)
		text_printf(out, text_fmt, value);
	if (wants_json(out, where))
		json_set_uint64(out, key, value);
}

void print_i64(struct output *out, enum print_where where, const char *key,
	       const char *text_fmt, int64_t value)
{
	if (wants_text(out, where) && text_fmt)
		text_printf(out, text_fmt, value);
	if (wants_json(out, where))
		json_set_int64(out, key, value);
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
	json_set_string(out, raw_key, encoded, strlen(encoded));
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
