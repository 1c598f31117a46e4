/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The output layer writes flat JSON records itself and leaves escaping to
 * json-c only where a string needs it: every record must still read exactly
 * as json-c would have serialised it.
 */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "output.h"

#define JSON_FLAGS (JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE)

struct capture {
	char *text;
	size_t len;
	FILE *stream;
	struct output *out;
};

static void capture_open(struct capture *c, enum output_format format)
{
	memset(c, 0, sizeof(*c));
	c->stream = open_memstream(&c->text, &c->len);
	cr_assert_not_null(c->stream);
	c->out = output_create(format, c->stream);
	cr_assert_not_null(c->out);
}

/* Everything written, as one string; the capture is closed. */
static char *capture_close(struct capture *c)
{
	output_destroy(c->out);
	cr_assert_eq(fclose(c->stream), 0);
	return c->text;
}

/* json-c's own line for @object, which is released. */
static char *json_c_line(json_object *object)
{
	char *line;

	cr_assert_geq(asprintf(&line, "%s\n",
			       json_object_to_json_string_ext(object, JSON_FLAGS)),
		      0);
	json_object_put(object);
	return line;
}

Test(output, every_byte_in_a_string_is_written_as_json_c_writes_it)
{
	for (int byte = 1; byte < 256; byte++) {
		char value[] = { 'a', (char)byte, 'z', '\0' };
		struct capture c;
		json_object *expected = json_object_new_object();
		char *line, *want;

		capture_open(&c, OUTPUT_JSON);
		output_begin(c.out);
		print_string(c.out, PRINT_ANY, "name", NULL, value);
		cr_assert_eq(output_end(c.out), 0);
		line = capture_close(&c);
		json_object_object_add(expected, "name",
				       json_object_new_string(value));
		want = json_c_line(expected);
		cr_assert_str_eq(line, want, "byte 0x%02x", byte);
		free(line);
		free(want);
	}
}

Test(output, numbers_booleans_and_null_are_written_as_json_c_writes_them)
{
	struct capture c;
	json_object *expected = json_object_new_object();
	char *line, *want;

	capture_open(&c, OUTPUT_JSON);
	output_begin(c.out);
	print_u64(c.out, PRINT_ANY, "zero", NULL, 0);
	print_u64(c.out, PRINT_ANY, "max", NULL, UINT64_MAX);
	print_i64(c.out, PRINT_ANY, "min", NULL, INT64_MIN);
	print_i64(c.out, PRINT_ANY, "minus_one", NULL, -1);
	print_bool(c.out, PRINT_ANY, "yes", NULL, true);
	print_bool(c.out, PRINT_ANY, "no", NULL, false);
	print_string(c.out, PRINT_ANY, "none", NULL, NULL);
	print_dev(c.out, PRINT_ANY, "dev", NULL, makedev(253, 1));
	cr_assert_eq(output_end(c.out), 0);
	line = capture_close(&c);

	json_object_object_add(expected, "zero", json_object_new_uint64(0));
	json_object_object_add(expected, "max", json_object_new_uint64(UINT64_MAX));
	json_object_object_add(expected, "min", json_object_new_int64(INT64_MIN));
	json_object_object_add(expected, "minus_one", json_object_new_int64(-1));
	json_object_object_add(expected, "yes", json_object_new_boolean(1));
	json_object_object_add(expected, "no", json_object_new_boolean(0));
	json_object_object_add(expected, "none", NULL);
	json_object_object_add(expected, "dev", json_object_new_string("253:1"));
	want = json_c_line(expected);
	cr_assert_str_eq(line, want);
	free(line);
	free(want);
}

Test(output, fields_before_and_after_a_nested_object_keep_their_order)
{
	struct capture c;
	char *line;

	capture_open(&c, OUTPUT_JSON);
	output_begin(c.out);
	print_string(c.out, PRINT_ANY, "first", NULL, "a\"b");
	output_open_array(c.out, "list");
	print_u64(c.out, PRINT_ANY, NULL, NULL, 1);
	output_open_object(c.out, NULL);
	print_bool(c.out, PRINT_ANY, "inner", NULL, true);
	output_close(c.out);
	output_close(c.out);
	print_u64(c.out, PRINT_ANY, "last", NULL, 7);
	cr_assert_eq(output_end(c.out), 0);
	line = capture_close(&c);
	cr_assert_str_eq(line,
			 "{\"first\":\"a\\\"b\",\"list\":[1,{\"inner\":true}],\"last\":7}\n");
	free(line);
}

Test(output, records_after_a_nested_one_are_flat_again)
{
	struct capture c;
	char *text;

	capture_open(&c, OUTPUT_JSON);
	output_begin(c.out);
	output_open_object(c.out, "o");
	output_close(c.out);
	cr_assert_eq(output_end(c.out), 0);
	output_begin(c.out);
	print_u64(c.out, PRINT_ANY, "n", NULL, 2);
	cr_assert_eq(output_end(c.out), 0);
	text = capture_close(&c);
	cr_assert_str_eq(text, "{\"o\":{}}\n{\"n\":2}\n");
	free(text);
}

Test(output, text_fields_go_only_to_text_and_json_fields_only_to_json)
{
	struct capture c;
	char *text;

	capture_open(&c, OUTPUT_TEXT);
	output_begin(c.out);
	print_u64(c.out, PRINT_JSON, "hidden", "%" PRIu64 " ", 1);
	print_u64(c.out, PRINT_ANY, "shown", "%" PRIu64 " ", 2);
	print_path(c.out, PRINT_ANY, "path", "%s", "tab\there", 8);
	cr_assert_eq(output_end(c.out), 0);
	text = capture_close(&c);
	cr_assert_str_eq(text, "2 tab\\there\n");
	free(text);
}

Test(output, a_path_that_is_not_utf8_keeps_its_bytes_in_base64)
{
	struct capture c;
	char *line;

	capture_open(&c, OUTPUT_JSON);
	output_begin(c.out);
	print_path(c.out, PRINT_ANY, "path", NULL, "a\xff", 2);
	cr_assert_eq(output_end(c.out), 0);
	line = capture_close(&c);
	cr_assert_str_eq(line,
			 "{\"path\":\"a\xef\xbf\xbd\",\"path_base64\":\"Yf8=\"}\n");
	free(line);
}

/*
 * A stream whose every write fails without setting errno, as a device may:
 * it writes nothing and says 0, which fopencookie(3) asks of a failing
 * write (glibc takes a negative count for a huge one and reads past the
 * buffer: valgrind saw it).
 */
static ssize_t write_fails_silently(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	(void)buf;
	(void)size;
	return 0;
}

/* An unbuffered stream of write_fails_silently(). */
static FILE *failing_stream(void)
{
	cookie_io_functions_t io = { .write = write_fails_silently };
	FILE *f = fopencookie(NULL, "w", io);

	cr_assert_not_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	return f;
}

Test(output, a_failed_write_is_reported_as_eio_never_as_a_stale_errno)
{
	enum output_format formats[] = { OUTPUT_TEXT, OUTPUT_JSON };

	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		FILE *f = failing_stream();
		struct output *out = output_create(formats[i], f);

		cr_assert_not_null(out);
		output_begin(out);
		print_u64(out, PRINT_ANY, "n", "%" PRIu64, 1);
		errno = ENOENT; /* left by some earlier call */
		cr_assert_eq(output_end(out), -1);
		cr_assert_eq(errno, EIO, "format %zu: errno %d", i, errno);
		output_destroy(out);
		fclose(f);
	}
}
