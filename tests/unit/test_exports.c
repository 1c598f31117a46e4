/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Specification of the exports(5) parser: one behaviour per test. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* asprintf */
#endif
#include "btrfsino.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */
/* ------------------------------------------------------------------------ */

static struct bino_exports *parse_bytes(const char *text, size_t length)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;
	enum bino_error ret;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	ret = bino_exports_add_buffer(exports, "test.exports", text, length,
				      &err);
	cr_assert_eq(ret, BINO_OK, "parse failed: %s: %s:%u:%u: %s",
		     bino_strerror(ret), err.file, err.line, err.column,
		     err.message);
	return exports;
}

static struct bino_exports *parse(const char *text)
{
	return parse_bytes(text, strlen(text));
}

static const struct bino_export *nth(const struct bino_exports *exports,
				     size_t index)
{
	const struct bino_export *export = bino_exports_get(exports, index);

	cr_assert_not_null(export, "no export #%zu", index);
	return export;
}

/* Assert that @text is rejected at @line:@column with @message. */
static void expect_error_bytes(const char *text, size_t length,
			       unsigned int line, unsigned int column,
			       const char *message)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "bad.exports", text,
					     length, &err),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_expect_str_eq(err.file, "bad.exports");
	cr_expect_eq(err.line, line, "line %u, want %u", err.line, line);
	cr_expect_eq(err.column, column, "column %u, want %u", err.column,
		     column);
	cr_expect_str_eq(err.message, message);
	bino_exports_destroy(exports);
}

static void expect_error(const char *text, unsigned int line,
			 unsigned int column, const char *message)
{
	expect_error_bytes(text, strlen(text), line, column, message);
}

/* Assert that export @index has @client, @options and @flags. */
static void expect_client(const struct bino_exports *exports, size_t index,
			  const char *client, const char *options, int flags)
{
	cr_expect_str_eq(bino_export_client(nth(exports, index)), client);
	cr_expect_str_eq(bino_export_options(nth(exports, index)), options);
	cr_expect_eq(bino_export_flags(nth(exports, index)), flags,
		     "flags %#x, want %#x", bino_export_flags(nth(exports, index)),
		     flags);
}

/* Assert that warning @index of @exports is @message at @line:@column. */
static void expect_warning(const struct bino_exports *exports, size_t index,
			   unsigned int line, unsigned int column,
			   const char *message)
{
	const struct bino_syntax_error *w = bino_exports_warning(exports, index);

	cr_assert_not_null(w, "no warning #%zu", index);
	cr_expect_eq(w->line, line, "line %u, want %u", w->line, line);
	cr_expect_eq(w->column, column, "column %u, want %u", w->column, column);
	cr_expect_str_eq(w->message, message);
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                   */
/* ------------------------------------------------------------------------ */

Test(exports, new_table_is_empty)
{
	struct bino_exports *exports;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_expect_eq(bino_exports_count(exports), 0);
	cr_expect_null(bino_exports_get(exports, 0));
	bino_exports_destroy(exports);
}

Test(exports, destroy_accepts_null)
{
	bino_exports_destroy(NULL);
}

Test(exports, get_past_the_end_is_null)
{
	struct bino_exports *exports = parse("/srv a(rw)\n");

	cr_expect_not_null(bino_exports_get(exports, 0));
	cr_expect_null(bino_exports_get(exports, 1));
	cr_expect_null(bino_exports_get(exports, (size_t)-1));
	bino_exports_destroy(exports);
}

Test(exports, null_arguments_are_invalid)
{
	struct bino_exports *exports;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_expect_eq(bino_exports_create(NULL), BINO_ERROR_INVALID_ARGUMENT);
	cr_expect_eq(bino_exports_add_buffer(NULL, "x", "", 0, NULL),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_expect_eq(bino_exports_add_buffer(exports, NULL, "", 0, NULL),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_expect_eq(bino_exports_add_buffer(exports, "x", NULL, 1, NULL),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_expect_eq(bino_exports_add_file(exports, NULL, NULL),
		     BINO_ERROR_INVALID_ARGUMENT);
	cr_expect_eq(bino_exports_add_file(NULL, "/etc/exports", NULL),
		     BINO_ERROR_INVALID_ARGUMENT);
	bino_exports_destroy(exports);
}

Test(exports, null_text_of_length_zero_is_an_empty_file)
{
	struct bino_exports *exports = parse_bytes(NULL, 0);

	cr_expect_eq(bino_exports_count(exports), 0);
	bino_exports_destroy(exports);
}

Test(exports, error_report_is_optional)
{
	struct bino_exports *exports;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_expect_eq(bino_exports_add_buffer(exports, "x", "/a h(x)", 7, NULL),
		     BINO_ERROR_EXPORTS_SYNTAX);
	bino_exports_destroy(exports);
}

Test(exports, error_report_is_cleared_on_success)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;

	memset(&err, 'x', sizeof(err));
	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "x", "/a b\n", 5, &err),
		     BINO_OK);
	cr_expect_eq(err.line, 0);
	cr_expect_eq(err.column, 0);
	cr_expect_str_eq(err.message, "");
	bino_exports_destroy(exports);
}

Test(exports, long_file_name_is_truncated_in_the_error_report)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;
	char name[1000];

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, name, "/a h(x)", 7, &err),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_expect_eq(strlen(err.file), sizeof(err.file) - 1);
	cr_expect_eq(strncmp(err.file, name, sizeof(err.file) - 1), 0);
	bino_exports_destroy(exports);
}

/* ------------------------------------------------------------------------ */
/* Lines, clients and file order                                            */
/* ------------------------------------------------------------------------ */

Test(exports, one_client_with_options)
{
	struct bino_exports *exports = parse("/srv/a host(rw,sync)\n");
	const struct bino_export *e = nth(exports, 0);

	cr_expect_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_path(e), "/srv/a");
	cr_expect_str_eq(bino_export_client(e), "host");
	cr_expect_str_eq(bino_export_options(e), "rw,sync");
	cr_expect_str_eq(bino_export_file(e), "test.exports");
	cr_expect_eq(bino_export_line(e), 1);
	bino_exports_destroy(exports);
}

Test(exports, several_clients_on_a_line_are_separate_exports_in_order)
{
	struct bino_exports *exports =
		parse("/srv/a one(rw) two(ro) 192.0.2.0/24(rw) @group\n");

	cr_assert_eq(bino_exports_count(exports), 4);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "one");
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "two");
	cr_expect_str_eq(bino_export_client(nth(exports, 2)), "192.0.2.0/24");
	cr_expect_str_eq(bino_export_client(nth(exports, 3)), "@group");
	cr_expect_str_eq(bino_export_path(nth(exports, 3)), "/srv/a");
	cr_expect_str_eq(bino_export_options(nth(exports, 1)), "ro");
	bino_exports_destroy(exports);
}

Test(exports, a_path_repeated_on_later_lines_keeps_every_pair_in_file_order)
{
	struct bino_exports *exports = parse("/srv/a h1(rw)\n"
					     "/srv/b h2(rw)\n"
					     "/srv/a h3(ro) h1(ro)\n");

	cr_assert_eq(bino_exports_count(exports), 4);
	cr_expect_str_eq(bino_export_path(nth(exports, 2)), "/srv/a");
	cr_expect_str_eq(bino_export_client(nth(exports, 2)), "h3");
	cr_expect_str_eq(bino_export_client(nth(exports, 3)), "h1");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	cr_expect_str_eq(bino_export_options(nth(exports, 3)), "ro");
	cr_expect_eq(bino_export_line(nth(exports, 3)), 3);
	bino_exports_destroy(exports);
}

Test(exports, a_continued_entry_spans_from_its_first_to_its_last_line)
{
	struct bino_exports *exports = parse("/srv/a \\\n"
					     "  h1(rw) \\\n"
					     "  h2(ro)\n"
					     "/srv/b h3(rw)\n");

	cr_assert_eq(bino_exports_count(exports), 3);
	cr_expect_eq(bino_export_line(nth(exports, 0)), 1);
	cr_expect_eq(bino_export_last_line(nth(exports, 0)), 3);
	cr_expect_eq(bino_export_line(nth(exports, 1)), 1);
	cr_expect_eq(bino_export_last_line(nth(exports, 1)), 3);
	cr_expect_eq(bino_export_line(nth(exports, 2)), 4);
	cr_expect_eq(bino_export_last_line(nth(exports, 2)), 4);
	bino_exports_destroy(exports);
}

Test(exports, client_without_option_list_has_no_options)
{
	struct bino_exports *exports = parse("/srv/a host\n");

	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "host");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "");
	bino_exports_destroy(exports);
}

Test(exports, option_list_without_host_is_for_everyone)
{
	struct bino_exports *exports = parse("/srv/a (rw)\n");

	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "*");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, path_without_clients_is_exported_to_everyone)
{
	struct bino_exports *exports = parse("/srv/a\n");

	cr_assert_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "*");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "");
	bino_exports_destroy(exports);
}

Test(exports, client_without_options_is_a_warning_as_in_exportfs)
{
	/* exportfs: "No options for /spaced out: suggest out(sync) ..." */
	struct bino_exports *exports = parse("/spaced out *(rw)\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/spaced");
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "out");
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "*");
	cr_assert_eq(bino_exports_warning_count(exports), 1);
	cr_expect_str_eq(bino_exports_warning(exports, 0)->file, "test.exports");
	expect_warning(exports, 0, 1, 9,
		       "no options for client \"out\": exportfs warns and "
		       "exports to it with the default options");
	cr_expect_null(bino_exports_warning(exports, 1));
	bino_exports_destroy(exports);
}

Test(exports, client_without_options_after_default_options_is_no_warning)
{
	struct bino_exports *exports = parse("/a -rw h\n");

	cr_expect_eq(bino_exports_warning_count(exports), 0);
	bino_exports_destroy(exports);
}

Test(exports, option_list_without_host_is_a_warning_as_in_exportfs)
{
	struct bino_exports *exports = parse("/a (rw)\n");

	cr_assert_eq(bino_exports_warning_count(exports), 1);
	expect_warning(exports, 0, 1, 4,
		       "no host name before the option list: exportfs warns "
		       "and exports to everyone (*)");
	bino_exports_destroy(exports);
}

Test(exports, path_alone_is_a_warning_as_in_exportfs)
{
	struct bino_exports *exports = parse("/a\n");

	cr_assert_eq(bino_exports_warning_count(exports), 1);
	expect_warning(exports, 0, 1, 3,
		       "no client and no options: exportfs warns and exports "
		       "to everyone (*) with the default options");
	bino_exports_destroy(exports);
}

Test(exports, second_default_option_word_in_a_row_is_a_client)
{
	/* getexportent() reads one "-opts" word, then a client. */
	struct bino_exports *exports = parse("/srv/a -ro -sync host(rw)\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	expect_client(exports, 0, "-sync", "ro", BINO_EXPORT_RO);
	expect_client(exports, 1, "host", "ro,rw", 0);
	bino_exports_destroy(exports);
}

Test(exports, carriage_return_before_a_word_ends_the_line_as_in_exportfs)
{
	/* xskip() stops at "\r"; xgettok() reads it as an empty word. */
	struct bino_exports *exports = parse("/a h \r/b(rw)\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h");
	cr_expect_str_eq(bino_export_path(nth(exports, 1)), "/b(rw)");
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "*");
	bino_exports_destroy(exports);
}

Test(exports, blank_between_host_and_options_makes_a_second_client_for_everyone)
{
	/* exportfs reads "host (rw)" as "host" and "(rw)", and only warns. */
	struct bino_exports *exports = parse("/srv/a host (rw)\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	expect_client(exports, 0, "host", "", BINO_EXPORT_RO);
	expect_client(exports, 1, "*", "rw", 0);
	bino_exports_destroy(exports);
}

Test(exports, last_line_needs_no_newline)
{
	struct bino_exports *exports = parse("/srv/a host(rw)");

	cr_expect_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, text_need_not_be_nul_terminated)
{
	const char text[] = { '/', 'a', ' ', 'h', '(', 'r', 'w', ')', 'X' };
	struct bino_exports *exports = parse_bytes(text, sizeof(text) - 1);

	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, blank_lines_and_indentation_are_ignored)
{
	struct bino_exports *exports =
		parse("\n  \t \n\t/srv/a\thost(rw)  \r\n\n \t\n  /srv/b h\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_eq(bino_export_line(nth(exports, 0)), 3);
	cr_expect_str_eq(bino_export_path(nth(exports, 1)), "/srv/b");
	cr_expect_eq(bino_export_line(nth(exports, 1)), 6);
	bino_exports_destroy(exports);
}

Test(exports, empty_text_gives_no_exports)
{
	struct bino_exports *exports = parse("");

	cr_expect_eq(bino_exports_count(exports), 0);
	bino_exports_destroy(exports);
}

/* ------------------------------------------------------------------------ */
/* Comments                                                                 */
/* ------------------------------------------------------------------------ */

Test(exports, comment_lines_are_ignored)
{
	struct bino_exports *exports =
		parse("# /srv/x host(rw)\n   # indented\n/srv/a host\n#");

	cr_assert_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a");
	cr_expect_eq(bino_export_line(nth(exports, 0)), 3);
	bino_exports_destroy(exports);
}

Test(exports, comment_after_a_blank_ends_the_line)
{
	struct bino_exports *exports =
		parse("/srv/a one(rw) # two(rw)\n/srv/b three\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "one");
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "three");
	bino_exports_destroy(exports);
}

Test(exports, hash_inside_a_word_is_an_ordinary_byte)
{
	struct bino_exports *exports = parse("/srv/a#b host#1(rw)\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a#b");
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "host#1");
	bino_exports_destroy(exports);
}

Test(exports, hash_right_after_an_option_list_is_an_error)
{
	expect_error("/srv/a host(rw)#comment\n", 1, 16,
		     "bad option list: text after ')'");
}

/* ------------------------------------------------------------------------ */
/* Continuation lines                                                       */
/* ------------------------------------------------------------------------ */

Test(exports, backslash_newline_continues_the_line)
{
	struct bino_exports *exports = parse("/srv/a one(rw) \\\n"
					     "       two(ro)\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "two");
	cr_expect_eq(bino_export_line(nth(exports, 1)), 1);
	bino_exports_destroy(exports);
}

Test(exports, continuation_separates_words_like_a_blank)
{
	struct bino_exports *exports = parse("/srv/a\\\none(rw)\n");

	cr_assert_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a");
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "one");
	bino_exports_destroy(exports);
}

Test(exports, continuation_inside_quotes_is_one_space)
{
	struct bino_exports *exports = parse("\"/srv/a\\\n    b\" h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a b");
	bino_exports_destroy(exports);
}

Test(exports, continued_lines_count_for_later_line_numbers)
{
	struct bino_exports *exports = parse("/srv/a one \\\n two \\\n three\n"
					     "/srv/b four\n");

	cr_expect_eq(bino_export_line(nth(exports, 3)), 4);
	bino_exports_destroy(exports);
}

Test(exports, continuation_then_comment_ends_the_line)
{
	struct bino_exports *exports = parse("/srv/a one \\\n# two\n/srv/b\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_path(nth(exports, 1)), "/srv/b");
	bino_exports_destroy(exports);
}

Test(exports, backslash_before_crlf_does_not_continue_the_line)
{
	/* As in exportfs: "\\" is a client, "\r" ends the line, "h2" a path. */
	struct bino_exports *exports = parse("/srv/a h1 \\\r\n/srv/b h2(rw)\r\n");

	cr_assert_eq(bino_exports_count(exports), 3);
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "\\");
	cr_expect_str_eq(bino_export_path(nth(exports, 2)), "/srv/b");
	bino_exports_destroy(exports);
}

Test(exports, crlf_line_ends_are_blanks)
{
	struct bino_exports *exports = parse("/srv/a h(rw)\r\n/srv/b h\r\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "h");
	bino_exports_destroy(exports);
}

/* ------------------------------------------------------------------------ */
/* Quotes and escapes                                                       */
/* ------------------------------------------------------------------------ */

Test(exports, quoted_path_keeps_its_blanks)
{
	struct bino_exports *exports = parse("\"/srv/a b\tc\" h(rw)\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a b\tc");
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h");
	bino_exports_destroy(exports);
}

Test(exports, quotes_may_cover_part_of_a_word)
{
	struct bino_exports *exports = parse("/srv/a\" b \"c h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a b c");
	bino_exports_destroy(exports);
}

Test(exports, quotes_are_removed_from_clients_and_options)
{
	struct bino_exports *exports = parse("/srv/a \"h\"(\"rw, sync\")\n");

	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h");
	/* parseopts() drops blanks before an option. */
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw,sync");
	bino_exports_destroy(exports);
}

Test(exports, octal_escape_in_path_is_decoded)
{
	struct bino_exports *exports =
		parse("/srv/a\\040b\\011c\\043d\\134e h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)),
			 "/srv/a b\tc#d\\e");
	bino_exports_destroy(exports);
}

Test(exports, octal_escape_may_give_any_non_nul_byte)
{
	struct bino_exports *exports = parse("/\\001\\377 h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/\001\377");
	bino_exports_destroy(exports);
}

Test(exports, escaped_quote_is_a_quote_character)
{
	struct bino_exports *exports = parse("/srv/a\\042b h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a\"b");
	bino_exports_destroy(exports);
}

Test(exports, escape_of_400_or_more_is_kept_as_written)
{
	struct bino_exports *exports = parse("/srv/a\\400 h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a\\400");
	bino_exports_destroy(exports);
}

Test(exports, backslash_without_three_octal_digits_is_itself)
{
	struct bino_exports *exports = parse("/srv/a\\b\\08\\0 h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a\\b\\08\\0");
	bino_exports_destroy(exports);
}

Test(exports, backslash_at_end_of_text_is_itself)
{
	struct bino_exports *exports = parse("/srv/a\\");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/a\\");
	bino_exports_destroy(exports);
}

Test(exports, decoded_escape_is_decoded_again_as_in_xgettok)
{
	/* \134 is a backslash, which then starts "\101", an "A". */
	struct bino_exports *exports = parse("/srv/\\134101 h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/A");
	bino_exports_destroy(exports);
}

Test(exports, escape_may_be_split_by_quotes)
{
	struct bino_exports *exports = parse("/srv/\\1\"0\"1 h\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/A");
	bino_exports_destroy(exports);
}

Test(exports, escaped_parenthesis_opens_an_option_list_as_in_exportfs)
{
	struct bino_exports *exports = parse("/srv/a h\\050rw\\051\n");

	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, invalid_utf8_is_kept_byte_for_byte)
{
	struct bino_exports *exports = parse("/srv/\xff\xfe\xc3 h\xe9(rw)\n");

	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/\xff\xfe\xc3");
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h\xe9");
	bino_exports_destroy(exports);
}

Test(exports, path_of_1025_bytes_or_more_stops_the_file_as_in_exportfs)
{
	char text[1100];
	struct bino_exports *exports;
	struct bino_syntax_error err;

	/* xgettok() into e_path[NFS_MAXPATHLEN + 1]: 1024 bytes at most. */
	text[0] = '/';
	memset(text + 1, 'p', 1023);
	strcpy(text + 1024, " h\n");
	exports = parse(text);
	cr_expect_eq(strlen(bino_export_path(nth(exports, 0))), 1024);
	bino_exports_destroy(exports);

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	text[0] = '/';
	memset(text + 1, 'p', 1024);
	strcpy(text + 1025, " h\n");
	cr_expect_eq(bino_exports_add_buffer(exports, "x", text, strlen(text),
					     &err),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_expect_eq(err.column, 1);
	cr_expect_str_eq(err.message, "path of 1025 bytes or more: exportfs "
				      "stops reading the file here");
	cr_expect_eq(bino_exports_count(exports), 0);
	bino_exports_destroy(exports);
}

Test(exports, client_of_512_bytes_or_more_stops_the_file_as_in_exportfs)
{
	char text[700];

	strcpy(text, "/srv/a h(rw)\n/srv/b ");
	memset(text + 20, 'c', 512);
	strcpy(text + 532, "\n");
	expect_error(text, 2, 8,
		     "client of 512 bytes or more (exportfs: expected "
		     "client(options...)): exportfs stops reading the file "
		     "here");
	memset(text + 20, 'c', 507);
	strcpy(text + 527, "(rw)\n");
	{
		struct bino_exports *exports = parse(text);

		cr_expect_eq(bino_exports_count(exports), 2);
		bino_exports_destroy(exports);
	}
}

Test(exports, line_of_exactly_the_maximum_length_is_accepted)
{
	size_t n = BINO_EXPORTS_LINE_MAX;
	char *text = malloc(n + 2);
	struct bino_exports *exports;
	size_t i;

	/* "/p" and clients " h" up to the limit: 2 + 2 * 32767 bytes. */
	cr_assert_not_null(text);
	memcpy(text, "/p", 2);
	for (i = 2; i < n; i += 2)
		memcpy(text + i, " h", 2);
	memcpy(text + n, "\n", 2);
	exports = parse(text);
	cr_expect_eq(bino_exports_count(exports), (n - 2) / 2);
	bino_exports_destroy(exports);
	free(text);
}

/* ------------------------------------------------------------------------ */
/* Default options ("-opts")                                                */
/* ------------------------------------------------------------------------ */

Test(exports, default_options_come_before_each_clients_own)
{
	struct bino_exports *exports = parse("/p -ro,sync a(rw) b\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "ro,sync,rw");
	cr_expect_eq(bino_export_flags(nth(exports, 0)), 0);
	cr_expect_str_eq(bino_export_options(nth(exports, 1)), "ro,sync");
	cr_expect_eq(bino_export_flags(nth(exports, 1)), BINO_EXPORT_RO);
	bino_exports_destroy(exports);
}

Test(exports, default_options_apply_only_to_clients_after_them)
{
	struct bino_exports *exports = parse("/p a(rw) -crossmnt b\n");

	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	cr_expect_eq(bino_export_flags(nth(exports, 0)), 0);
	cr_expect_str_eq(bino_export_options(nth(exports, 1)), "crossmnt");
	cr_expect_eq(bino_export_flags(nth(exports, 1)),
		     BINO_EXPORT_RO | BINO_EXPORT_CROSSMNT);
	bino_exports_destroy(exports);
}

Test(exports, default_option_words_between_clients_add_up)
{
	struct bino_exports *exports = parse("/p -rw a -nohide b(sync)\n");

	cr_expect_str_eq(bino_export_options(nth(exports, 1)), "rw,nohide,sync");
	cr_expect_eq(bino_export_flags(nth(exports, 1)), BINO_EXPORT_NOHIDE);
	bino_exports_destroy(exports);
}

Test(exports, default_options_alone_export_to_everyone)
{
	struct bino_exports *exports = parse("/p -rw\n");

	cr_assert_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "*");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, default_options_last_on_a_line_also_export_to_everyone)
{
	/* exportfs reads the missing client after them as "*". */
	struct bino_exports *exports = parse("/p a(ro) -rw\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "*");
	cr_expect_str_eq(bino_export_options(nth(exports, 1)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, lone_dash_gives_no_default_options)
{
	struct bino_exports *exports = parse("/p - a(rw)\n");

	cr_assert_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, default_options_end_with_their_line)
{
	struct bino_exports *exports = parse("/p -rw a\n/q b\n");

	cr_expect_str_eq(bino_export_options(nth(exports, 1)), "");
	cr_expect_eq(bino_export_flags(nth(exports, 1)), BINO_EXPORT_RO);
	bino_exports_destroy(exports);
}

/* ------------------------------------------------------------------------ */
/* Options and flags                                                        */
/* ------------------------------------------------------------------------ */

static int flags_of(const char *text)
{
	struct bino_exports *exports = parse(text);
	int flags = bino_export_flags(nth(exports, 0));

	bino_exports_destroy(exports);
	return flags;
}

Test(exports, read_only_is_the_default)
{
	cr_expect_eq(flags_of("/p h\n"), BINO_EXPORT_RO);
	cr_expect_eq(flags_of("/p h(sync)\n"), BINO_EXPORT_RO);
}

Test(exports, rw_after_ro_is_read_write)
{
	cr_expect_eq(flags_of("/p h(ro,rw)\n"), 0);
}

Test(exports, ro_after_rw_is_read_only)
{
	cr_expect_eq(flags_of("/p h(rw,ro)\n"), BINO_EXPORT_RO);
}

Test(exports, client_rw_overrides_default_ro)
{
	cr_expect_eq(flags_of("/p -ro h(rw)\n"), 0);
}

Test(exports, nohide_sets_its_flag_and_hide_clears_it)
{
	cr_expect_eq(flags_of("/p h(rw,nohide)\n"), BINO_EXPORT_NOHIDE);
	cr_expect_eq(flags_of("/p h(rw,nohide,hide)\n"), 0);
	cr_expect_eq(flags_of("/p h(rw,hide,nohide)\n"), BINO_EXPORT_NOHIDE);
}

Test(exports, crossmnt_sets_its_flag_and_nocrossmnt_clears_it)
{
	cr_expect_eq(flags_of("/p h(rw,crossmnt)\n"), BINO_EXPORT_CROSSMNT);
	cr_expect_eq(flags_of("/p h(rw,crossmnt,nocrossmnt)\n"), 0);
}

Test(exports, crossmnt_and_nohide_are_independent)
{
	cr_expect_eq(flags_of("/p h(rw,crossmnt,hide)\n"), BINO_EXPORT_CROSSMNT);
	cr_expect_eq(flags_of("/p h(rw,nohide,nocrossmnt)\n"),
		     BINO_EXPORT_NOHIDE);
}

Test(exports, subtree_check_sets_its_flag_and_no_subtree_check_clears_it)
{
	cr_expect_eq(flags_of("/p h(rw,subtree_check)\n"),
		     BINO_EXPORT_SUBTREE_CHECK);
	cr_expect_eq(flags_of("/p h(rw,subtree_check,no_subtree_check)\n"), 0);
	cr_expect_eq(flags_of("/p h(rw,no_subtree_check,subtree_check)\n"),
		     BINO_EXPORT_SUBTREE_CHECK);
}

Test(exports, refer_does_not_imply_nohide)
{
	/* nfs-utils 1.x did that; 2.6 (Debian 12) no longer does. */
	cr_expect_eq(flags_of("/p h(rw,refer=/x@server)\n"), 0);
}

Test(exports, no_fsid_by_default)
{
	struct bino_exports *exports = parse("/p h(rw)\n");

	cr_expect_null(bino_export_fsid(nth(exports, 0)));
	cr_expect_eq(bino_export_flags(nth(exports, 0)) & BINO_EXPORT_FSID, 0);
	bino_exports_destroy(exports);
}

static void expect_fsid(const char *text, const char *fsid)
{
	struct bino_exports *exports = parse(text);

	cr_expect_str_eq(bino_export_fsid(nth(exports, 0)), fsid);
	cr_expect_eq(bino_export_flags(nth(exports, 0)) & BINO_EXPORT_FSID,
		     BINO_EXPORT_FSID);
	bino_exports_destroy(exports);
}

Test(exports, fsid_may_be_a_number)
{
	expect_fsid("/p h(fsid=0)\n", "0");
	expect_fsid("/p h(fsid=4294967295)\n", "4294967295");
	expect_fsid("/p h(fsid=0x1f)\n", "0x1f");
	expect_fsid("/p h(fsid=017)\n", "017");
}

Test(exports, fsid_may_be_root)
{
	expect_fsid("/p h(fsid=root)\n", "root");
}

Test(exports, fsid_may_be_a_uuid)
{
	expect_fsid("/p h(fsid=4e3c1a2b-9f8d-4c7e-b6a5-0123456789ab)\n",
		    "4e3c1a2b-9f8d-4c7e-b6a5-0123456789ab");
	expect_fsid("/p h(fsid=4e3c1a2b9f8d4c7eb6a50123456789ab)\n",
		    "4e3c1a2b9f8d4c7eb6a50123456789ab");
}

Test(exports, later_fsid_wins)
{
	expect_fsid("/p h(fsid=1,fsid=2)\n", "2");
	expect_fsid("/p -fsid=1 h(fsid=root)\n", "root");
}

Test(exports, fsid_in_default_options_applies_to_clients)
{
	expect_fsid("/p -fsid=3 h\n", "3");
}

Test(exports, unknown_option_stops_the_file_and_keeps_the_entries_before)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;
	const struct bino_syntax_error *kept;
	const char text[] = "/a h(rw)\n/b g(rw) h(no_subtree,check) i\n/c h\n";

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_expect_eq(bino_exports_add_buffer(exports, "e", text,
					     sizeof(text) - 1, &err),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_expect_eq(err.line, 2);
	cr_expect_eq(err.column, 12);
	cr_expect_str_eq(err.message, "unknown keyword \"no_subtree\"");
	/* What exportfs exports: /a to h and /b to g, nothing after. */
	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/a");
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "g");
	cr_assert_eq(bino_exports_error_count(exports), 1);
	kept = bino_exports_error(exports, 0);
	cr_assert_not_null(kept);
	cr_expect_eq(memcmp(kept, &err, sizeof(err)), 0);
	cr_expect_null(bino_exports_error(exports, 1));
	bino_exports_destroy(exports);
}

Test(exports, freebsd_style_options_are_unknown_keywords)
{
	expect_error("/x -mapall=root -network 10.0.0.0\n", 1, 5,
		     "unknown keyword \"mapall=root\"");
}

Test(exports, options_newer_than_nfs_utils_2_6_2_are_unknown_keywords)
{
	expect_error("/x h(reexport=auto-fsidnum)\n", 1, 6,
		     "unknown keyword \"reexport=auto-fsidnum\"");
	expect_error("/x h(xprtsec=tls)\n", 1, 6,
		     "unknown keyword \"xprtsec=tls\"");
}

Test(exports, every_option_of_nfs_utils_2_6_2_is_accepted)
{
	struct bino_exports *exports = parse(
		"/p h(ro,rw,secure,insecure,sync,async,wdelay,no_wdelay,"
		"nohide,hide,crossmnt,nocrossmnt,root_squash,no_root_squash,"
		"all_squash,no_all_squash,subtree_check,no_subtree_check,"
		"auth_nlm,no_auth_nlm,secure_locks,insecure_locks,acl,no_acl,"
		"pnfs,no_pnfs,security_label,nordirplus,mountpoint,mp,"
		"mountpoint=/m,mp=/m,anonuid=65534,anongid=-2,fsid=1,"
		"refer=/a@b,replicas=/a@b,sec=sys:krb5:krb5i:krb5p:unix:null:none,"
		"squash_uids=0-5,squash_gids=7)\n");

	cr_expect_eq(bino_exports_count(exports), 1);
	cr_expect_eq(bino_exports_error_count(exports), 0);
	bino_exports_destroy(exports);
}

Test(exports, option_names_are_case_sensitive)
{
	expect_error("/p h(RW)\n", 1, 6, "unknown keyword \"RW\"");
}

Test(exports, squash_list_ends_at_its_first_comma_as_in_exportfs)
{
	/* parsesquash() sees the option cut at its comma: "20" is a keyword. */
	expect_error("/p h(squash_uids=0-15,20,rw)\n", 1, 23,
		     "unknown keyword \"20\"");
}

Test(exports, squash_id_minus_one_or_junk_is_an_error)
{
	expect_error("/p h(squash_uids=-1)\n", 1, 6,
		     "uid/gid -1 not permitted \"squash_uids=-1\"");
	/* atoi() wraps 4294967295 to -1. */
	expect_error("/p h(squash_gids=4294967295)\n", 1, 6,
		     "uid/gid -1 not permitted \"squash_gids=4294967295\"");
	expect_error("/p h(squash_gids=1-2-3)\n", 1, 6,
		     "bad uid/gid list \"squash_gids=1-2-3\"");
}

Test(exports, squash_range_ending_in_minus_one_is_an_error)
{
	/* parsesquash() checks both ends; atoi() wraps 4294967295 to -1. */
	expect_error("/p h(squash_uids=5-4294967295)\n", 1, 6,
		     "uid/gid -1 not permitted \"squash_uids=5-4294967295\"");
	expect_error("/p h(squash_gids=1-4294967295)\n", 1, 6,
		     "uid/gid -1 not permitted \"squash_gids=1-4294967295\"");
	expect_error("/p h(squash_uids=5--1)\n", 1, 6,
		     "uid/gid -1 not permitted \"squash_uids=5--1\"");
	/* 2^33 - 1: strtol() keeps it, (int) wraps it to -1 too. */
	expect_error("/p h(squash_gids=0-8589934591)\n", 1, 6,
		     "uid/gid -1 not permitted \"squash_gids=0-8589934591\"");
}

Test(exports, squash_range_ending_next_to_minus_one_is_accepted)
{
	/* 4294967294 wraps to -2, which parsesquash() lets through. */
	struct bino_exports *exports =
		parse("/p h(squash_uids=5-4294967294,squash_gids=1-2147483648)\n");

	cr_expect_eq(bino_exports_count(exports), 1);
	cr_expect_eq(bino_exports_error_count(exports), 0);
	bino_exports_destroy(exports);
}

Test(exports, one_trailing_comma_is_accepted)
{
	struct bino_exports *exports = parse("/p h(rw,)\n");

	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	bino_exports_destroy(exports);
}

Test(exports, empty_option_list_is_no_options)
{
	struct bino_exports *exports = parse("/p h()\n");

	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "");
	bino_exports_destroy(exports);
}

/* ------------------------------------------------------------------------ */
/* Syntax errors: each at file:line:column                                  */
/* ------------------------------------------------------------------------ */

Test(exports, quote_may_run_past_its_line_as_in_exportfs_with_a_warning)
{
	struct bino_exports *exports = parse("/srv/a \"h\nx\"(rw) g\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h\nx");
	cr_expect_str_eq(bino_export_options(nth(exports, 0)), "rw");
	expect_warning(exports, 0, 1, 8,
		       "quote runs past the end of the line: exportfs reads "
		       "on to the next quote");
	bino_exports_destroy(exports);
}

Test(exports, unterminated_quote_runs_to_the_end_with_a_warning)
{
	struct bino_exports *exports = parse("/srv/a h\"");

	cr_assert_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "h");
	expect_warning(exports, 0, 1, 9,
		       "unterminated quote: exportfs reads on to the end of "
		       "the file");
	bino_exports_destroy(exports);
}

Test(exports, missing_close_parenthesis_is_reported_at_the_open_one)
{
	expect_error("/srv/a host(rw\n", 1, 12,
		     "bad option list: no ')' (an option list may not "
		     "contain unquoted blanks)");
}

Test(exports, blank_inside_an_option_list_is_a_missing_parenthesis)
{
	expect_error("/srv/a host(rw, sync)\n", 1, 12,
		     "bad option list: no ')' (an option list may not "
		     "contain unquoted blanks)");
}

Test(exports, text_after_the_option_list_is_an_error)
{
	expect_error("/srv/a host(rw)x\n", 1, 16,
		     "bad option list: text after ')'");
	expect_error("/srv/a host(rw)(ro)\n", 1, 16,
		     "bad option list: text after ')'");
}

Test(exports, close_parenthesis_in_a_host_name_is_part_of_it)
{
	struct bino_exports *exports = parse("/srv/a host)\n");

	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "host)");
	bino_exports_destroy(exports);
}

Test(exports, parenthesis_inside_an_option_list_is_an_error)
{
	expect_error("/srv/a h(rw(\n", 1, 9,
		     "bad option list: no ')' (an option list may not "
		     "contain unquoted blanks)");
	expect_error("/srv/a h(r(w)\n", 1, 10, "unknown keyword \"r(w\"");
	expect_error("/srv/a -(rw) h\n", 1, 9, "unknown keyword \"(rw)\"");
}

Test(exports, empty_option_between_commas_is_an_error)
{
	expect_error("/srv/a host(rw,,sync)\n", 1, 16, "unknown keyword \"\"");
}

Test(exports, empty_first_option_is_an_error)
{
	expect_error("/srv/a host(,rw)\n", 1, 13, "unknown keyword \"\"");
	expect_error("/srv/a -,rw host\n", 1, 9, "unknown keyword \"\"");
}

Test(exports, relative_path_is_left_out_with_a_warning)
{
	struct bino_exports *exports =
		parse("# comment\nsrv/a host(rw)\n/srv/b h\n");

	cr_assert_eq(bino_exports_count(exports), 1);
	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/srv/b");
	expect_warning(exports, 0, 2, 1,
		       "path is not absolute: exportfs reads it, the audit "
		       "leaves it out");
	bino_exports_destroy(exports);
}

Test(exports, path_starting_with_a_dash_is_a_relative_path)
{
	struct bino_exports *exports = parse("-rw /srv/a\n");

	cr_expect_eq(bino_exports_count(exports), 0);
	cr_expect_eq(bino_exports_error_count(exports), 0);
	bino_exports_destroy(exports);
}

Test(exports, empty_quoted_path_stops_the_file)
{
	expect_error("/a h\n  \"\" host\n", 2, 3,
		     "empty path (\"\"): exportfs stops reading the file here");
}

Test(exports, carriage_return_where_a_path_starts_stops_the_file)
{
	/* A blank line of a CRLF file: exportfs reads an empty path. */
	expect_error("/a h(rw)\r\n\r\n/b h(rw)\r\n", 2, 1,
		     "\\r, \\v or \\f where a path should start (a blank line "
		     "of a CRLF file?): exportfs stops reading the file here");
}

Test(exports, carriage_return_alone_at_the_end_is_the_end)
{
	struct bino_exports *exports = parse("/a h(rw)\r\n\r\n");

	cr_expect_eq(bino_exports_count(exports), 1);
	bino_exports_destroy(exports);
}

Test(exports, empty_quoted_client_is_everyone_and_the_line_goes_on)
{
	struct bino_exports *exports = parse("/srv/a \"\" host\n");

	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_client(nth(exports, 0)), "*");
	cr_expect_str_eq(bino_export_client(nth(exports, 1)), "host");
	bino_exports_destroy(exports);
}

Test(exports, nul_byte_is_an_error_wherever_it_is)
{
	expect_error_bytes("/srv/a h\0(rw)\n", 14, 1, 9, "NUL byte in text");
	expect_error_bytes("/srv/a h\n# x\0\n", 14, 2, 4, "NUL byte in text");
	expect_error_bytes("/srv/a \"h\0\"\n", 12, 1, 10, "NUL byte in text");
	expect_error_bytes("\0", 1, 1, 1, "NUL byte in text");
}

Test(exports, escaped_nul_is_an_error)
{
	expect_error("/srv/a\\000b host\n", 1, 7,
		     "escape \\000 makes a NUL byte");
}

Test(exports, line_longer_than_the_maximum_is_an_error)
{
	size_t n = BINO_EXPORTS_LINE_MAX + 1;
	char *text = malloc(n + 8);
	size_t i;

	cr_assert_not_null(text);
	memcpy(text, "/a h\n/p", 7);
	for (i = 2; i < n; i += 2)
		memcpy(text + 5 + i, " h", 2);
	memcpy(text + 5 + n, "\n", 2);
	expect_error(text, 2, BINO_EXPORTS_LINE_MAX + 1,
		     "line too long (more than 65536 bytes)");
	free(text);
}

Test(exports, over_long_comment_line_is_an_error_too)
{
	size_t n = BINO_EXPORTS_LINE_MAX + 1;
	char *text = malloc(n + 2);

	cr_assert_not_null(text);
	text[0] = '#';
	memset(text + 1, ' ', n - 1);
	memcpy(text + n, "\n", 2);
	expect_error(text, 1, BINO_EXPORTS_LINE_MAX + 1,
		     "line too long (more than 65536 bytes)");
	free(text);
}

Test(exports, bad_fsid_is_an_error)
{
	expect_error("/srv/a h(rw,fsid=bogus)\n", 1, 13,
		     "bad fsid \"fsid=bogus\" (want a number, \"root\" or a UUID)");
	expect_error("/srv/a h(fsid=08)\n", 1, 10,
		     "bad fsid \"fsid=08\" (want a number, \"root\" or a UUID)");
	expect_error("/srv/a h(fsid=)\n", 1, 10,
		     "bad fsid \"fsid=\" (want a number, \"root\" or a UUID)");
	expect_error("/srv/a h(fsid=0x)\n", 1, 10,
		     "bad fsid \"fsid=0x\" (want a number, \"root\" or a UUID)");
}

Test(exports, fsid_is_read_with_strtoul_as_in_exportfs)
{
	expect_fsid("/p h(fsid=-1)\n", "-1");
	expect_fsid("/p h(fsid=+7)\n", "+7");
	expect_fsid("/p h(fsid=-0x10)\n", "-0x10");
	expect_fsid("/p h(fsid=\" 12\")\n", " 12");
	expect_fsid("/p h(fsid=99999999999999999999999)\n",
		    "99999999999999999999999");
}

Test(exports, bad_anonuid_or_anongid_is_an_error)
{
	expect_error("/srv/a h(anonuid=nobody)\n", 1, 10,
		     "bad anonuid \"anonuid=nobody\"");
	expect_error("/srv/a -anongid=1x h\n", 1, 9,
		     "bad anongid \"anongid=1x\"");
	expect_error("/srv/a h(anongid=0x10)\n", 1, 10,
		     "bad anongid \"anongid=0x10\"");
}

Test(exports, anonuid_is_read_with_strtol_as_in_exportfs)
{
	struct bino_exports *exports = parse(
		"/p h(anonuid=+5,anongid=-2,anonuid=\" 7\","
		"anongid=999999999999999999999)\n");

	cr_expect_eq(bino_exports_count(exports), 1);
	bino_exports_destroy(exports);
}

Test(exports, unknown_security_flavor_is_an_error)
{
	expect_error("/srv/a h(sec=krb5:kerberos)\n", 1, 19,
		     "unknown flavor \"kerberos\"");
	expect_error("/srv/a h(sec=sys::krb5)\n", 1, 18,
		     "unknown flavor \"\"");
	expect_error("/srv/a h(sec=)\n", 1, 14, "unknown flavor \"\"");
}

Test(exports, option_that_needs_a_value_without_one_is_an_error)
{
	expect_error("/srv/a h(rw,fsid)\n", 1, 13, "unknown keyword \"fsid\"");
	expect_error("/srv/a h(sec)\n", 1, 10, "unknown keyword \"sec\"");
}

Test(exports, error_columns_count_bytes_and_tabs_as_one)
{
	expect_error("\t/srv/a\th\t\xc3\xa9(rw,,x)\n", 1, 17,
		     "unknown keyword \"\"");
}

Test(exports, error_after_continued_lines_names_the_physical_line)
{
	expect_error("/srv/a h1(rw) \\\n   h2(ro) \\\n   h3(rw,,ro)\n", 3, 10,
		     "unknown keyword \"\"");
}

Test(exports, error_column_points_into_an_escaped_word)
{
	/* "\\050" is one byte of the word but four of the text. */
	expect_error("/srv/a h\\050rw,,ro)\n", 1, 16, "unknown keyword \"\"");
}

Test(exports, syntax_error_keeps_the_entries_before_it)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "good", "/a h\n", 5, &err),
		     BINO_OK);
	cr_expect_eq(bino_exports_add_buffer(exports, "bad",
					     "/b h1\n/c h2\n/d h3(\n/e h4\n",
					     25, &err),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_expect_str_eq(err.file, "bad");
	cr_expect_eq(err.line, 3);
	cr_assert_eq(bino_exports_count(exports), 3);
	cr_expect_str_eq(bino_export_path(nth(exports, 0)), "/a");
	cr_expect_str_eq(bino_export_file(nth(exports, 0)), "good");
	cr_expect_str_eq(bino_export_path(nth(exports, 2)), "/c");
	cr_expect_str_eq(bino_export_file(nth(exports, 2)), "bad");
	cr_expect_eq(bino_exports_error_count(exports), 1);
	bino_exports_destroy(exports);
}

Test(exports, each_file_stops_apart_and_its_error_is_kept_in_order)
{
	struct bino_exports *exports;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_expect_eq(bino_exports_add_buffer(exports, "one", "/a h(x)\n", 8,
					     NULL),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_expect_eq(bino_exports_add_buffer(exports, "two", "/b h\n", 5, NULL),
		     BINO_OK);
	cr_expect_eq(bino_exports_add_buffer(exports, "three", "/c h(y)\n", 8,
					     NULL),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_assert_eq(bino_exports_count(exports), 1);
	cr_assert_eq(bino_exports_error_count(exports), 2);
	cr_expect_str_eq(bino_exports_error(exports, 0)->file, "one");
	cr_expect_str_eq(bino_exports_error(exports, 1)->file, "three");
	cr_expect_str_eq(bino_exports_error(exports, 1)->message,
			 "unknown keyword \"y\"");
	bino_exports_destroy(exports);
}

/* ------------------------------------------------------------------------ */
/* Files                                                                    */
/* ------------------------------------------------------------------------ */

static char *write_temp(const char *text, size_t length)
{
	char *path = strdup("/tmp/test_exports.XXXXXX");
	int fd;

	cr_assert_not_null(path);
	fd = mkstemp(path);
	cr_assert_geq(fd, 0);
	cr_assert_eq(write(fd, text, length), (ssize_t)length);
	close(fd);
	return path;
}

Test(exports, add_file_reads_the_file_and_names_it)
{
	char *path = write_temp("/srv/a h(rw)\n/srv/b h\n", 22);
	struct bino_exports *exports;
	struct bino_syntax_error err;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_file(exports, path, &err), BINO_OK);
	cr_assert_eq(bino_exports_count(exports), 2);
	cr_expect_str_eq(bino_export_file(nth(exports, 1)), path);
	cr_expect_eq(bino_export_line(nth(exports, 1)), 2);
	bino_exports_destroy(exports);
	unlink(path);
	free(path);
}

Test(exports, add_file_reports_syntax_errors_with_the_file_name)
{
	char *path = write_temp("/srv/a h(rw\n", 12);
	struct bino_exports *exports;
	struct bino_syntax_error err;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_file(exports, path, &err),
		     BINO_ERROR_EXPORTS_SYNTAX);
	cr_expect_str_eq(err.file, path);
	cr_expect_eq(err.line, 1);
	cr_expect_eq(err.column, 9);
	bino_exports_destroy(exports);
	unlink(path);
	free(path);
}

Test(exports, add_file_of_a_missing_file_fails_to_read_with_enoent)
{
	struct bino_exports *exports;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	errno = 0;
	cr_expect_eq(bino_exports_add_file(exports, "/nonexistent/exports",
					   NULL),
		     BINO_ERROR_EXPORTS_READ_FAILED);
	cr_expect_eq(errno, ENOENT);
	bino_exports_destroy(exports);
}

Test(exports, add_file_of_a_directory_fails_to_read_with_eisdir)
{
	struct bino_exports *exports;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	errno = 0;
	cr_expect_eq(bino_exports_add_file(exports, "/", NULL),
		     BINO_ERROR_EXPORTS_READ_FAILED);
	cr_expect_eq(errno, EISDIR);
	bino_exports_destroy(exports);
}

Test(exports, files_added_one_after_another_accumulate_in_order)
{
	struct bino_exports *exports;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "one", "/a h\n", 5, NULL),
		     BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "two", "/b h\n/c h\n",
					     10, NULL),
		     BINO_OK);
	cr_assert_eq(bino_exports_count(exports), 3);
	cr_expect_str_eq(bino_export_file(nth(exports, 0)), "one");
	cr_expect_str_eq(bino_export_file(nth(exports, 2)), "two");
	cr_expect_str_eq(bino_export_path(nth(exports, 2)), "/c");
	cr_expect_eq(bino_export_line(nth(exports, 2)), 2);
	bino_exports_destroy(exports);
}

Test(exports, exports_stay_valid_while_more_are_added)
{
	struct bino_exports *exports;
	const struct bino_export *first;
	int i;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "x", "/a h\n", 5, NULL),
		     BINO_OK);
	first = nth(exports, 0);
	for (i = 0; i < 100; i++)
		cr_assert_eq(bino_exports_add_buffer(exports, "y", "/b h g\n",
						     7, NULL),
			     BINO_OK);
	cr_expect_eq(bino_exports_get(exports, 0), first);
	cr_expect_str_eq(bino_export_path(first), "/a");
	cr_expect_str_eq(bino_export_file(first), "x");
	cr_expect_eq(bino_exports_count(exports), 201);
	bino_exports_destroy(exports);
}

/* ------------------------------------------------------------------------ */
/* The corpus in tests/data/exports (see its README.md)                     */
/* ------------------------------------------------------------------------ */

static const char *data_dir(void)
{
	const char *dir = getenv("BINO_TEST_DATA");
	const char *ci = getenv("CI");

	if (!dir || !*dir) {
		if (ci && strcmp(ci, "true") == 0)
			cr_assert_fail("BINO_TEST_DATA is not set");
		cr_skip_test("BINO_TEST_DATA is not set (point it at tests/data)");
	}
	return dir;
}

static char *read_all(const char *path, size_t *length)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	size_t capacity = 0;
	size_t used = 0;
	size_t n;

	cr_assert_not_null(f, "cannot open %s", path);
	do {
		if (used + 4096 > capacity) {
			capacity = capacity * 2 + 4096;
			data = realloc(data, capacity + 1);
			cr_assert_not_null(data);
		}
		n = fread(data + used, 1, capacity - used, f);
		used += n;
	} while (n);
	fclose(f);
	data[used] = '\0';
	*length = used;
	return data;
}

/* The sidecar format: \ooo for unusual bytes, "-" for NULL. */
static void format_field(FILE *f, const char *s)
{
	const unsigned char *p;

	if (!s) {
		fputs("-", f);
		return;
	}
	if (strcmp(s, "-") == 0) {
		fputs("\\055", f);
		return;
	}
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p <= 0x20 || *p >= 0x7f || *p == '\\')
			fprintf(f, "\\%03o", *p);
		else
			fputc(*p, f);
	}
}

static char *format_exports(const struct bino_exports *exports)
{
	static const char *const flag_names[] = {
		"crossmnt", "nohide", "subtree_check", "ro", "fsid",
	};
	char *out = NULL;
	size_t length = 0;
	FILE *f = open_memstream(&out, &length);
	size_t i;

	cr_assert_not_null(f);
	for (i = 0; i < bino_exports_count(exports); i++) {
		const struct bino_export *e = nth(exports, i);
		int flags = bino_export_flags(e);
		bool any = false;
		size_t b;

		fprintf(f, "%u\t", bino_export_line(e));
		format_field(f, bino_export_path(e));
		fputc('\t', f);
		format_field(f, bino_export_client(e));
		fputc('\t', f);
		format_field(f, bino_export_options(e));
		fputc('\t', f);
		for (b = 0; b < sizeof(flag_names) / sizeof(flag_names[0]); b++) {
			if (flags & (1 << b)) {
				fprintf(f, "%s%s", any ? "," : "", flag_names[b]);
				any = true;
			}
		}
		if (!any)
			fputc('-', f);
		fputc('\t', f);
		format_field(f, bino_export_fsid(e));
		fputc('\n', f);
	}
	for (i = 0; i < bino_exports_warning_count(exports); i++) {
		const struct bino_syntax_error *w = bino_exports_warning(exports, i);

		fprintf(f, "warning %u:%u: %s\n", w->line, w->column, w->message);
	}
	for (i = 0; i < bino_exports_error_count(exports); i++) {
		const struct bino_syntax_error *e = bino_exports_error(exports, i);

		fprintf(f, "error %u:%u: %s\n", e->line, e->column, e->message);
	}
	fclose(f);
	return out;
}

/* Call @check on every NAME.exports in @kind; return how many. */
static size_t for_each_corpus_file(const char *kind,
				   void (*check)(const char *exports_path,
						 const char *expected_path))
{
	char *dir_path;
	DIR *dir;
	struct dirent *entry;
	size_t count = 0;

	cr_assert_gt(asprintf(&dir_path, "%s/exports/%s", data_dir(), kind), 0);
	dir = opendir(dir_path);
	cr_assert_not_null(dir, "cannot open %s", dir_path);
	while ((entry = readdir(dir))) {
		size_t n = strlen(entry->d_name);
		char *exports_path;
		char *expected_path;

		if (n <= 8 || strcmp(entry->d_name + n - 8, ".exports") != 0)
			continue;
		cr_assert_gt(asprintf(&exports_path, "%s/%s", dir_path,
				      entry->d_name), 0);
		cr_assert_gt(asprintf(&expected_path, "%s/%.*s.expected",
				      dir_path, (int)(n - 8), entry->d_name),
			     0);
		check(exports_path, expected_path);
		free(exports_path);
		free(expected_path);
		count++;
	}
	closedir(dir);
	free(dir_path);
	return count;
}

/*
 * Read @exports_path and compare the exports, warnings and error with
 * @expected_path; @want is BINO_OK for valid files, else the syntax error.
 */
static void check_file(const char *exports_path, const char *expected_path,
		       enum bino_error want)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;
	size_t length;
	char *expected = read_all(expected_path, &length);
	char *actual;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_expect_eq(bino_exports_add_file(exports, exports_path, &err), want,
		     "%s: %s:%u:%u: %s", exports_path, err.file, err.line,
		     err.column, err.message);
	actual = format_exports(exports);
	cr_expect_str_eq(actual, expected, "%s", exports_path);
	free(actual);
	free(expected);
	bino_exports_destroy(exports);
}

static void check_valid(const char *exports_path, const char *expected_path)
{
	check_file(exports_path, expected_path, BINO_OK);
}

static void check_invalid(const char *exports_path, const char *expected_path)
{
	check_file(exports_path, expected_path, BINO_ERROR_EXPORTS_SYNTAX);
}

Test(exports_corpus, every_valid_file_gives_the_expected_exports)
{
	cr_expect_geq(for_each_corpus_file("valid", check_valid), 21);
}

Test(exports_corpus, every_invalid_file_fails_where_expected)
{
	cr_expect_geq(for_each_corpus_file("invalid", check_invalid), 21);
}

/* ------------------------------------------------------------------------ */
/* Allocation failures                                                      */
/* ------------------------------------------------------------------------ */

/*
 * The test program's own malloc, calloc, realloc and free take the place of
 * the C library's (ELF interposition), so that the n'th allocation can be
 * made to fail and every block counted.  Sanitizers and valgrind replace
 * them first, so these tests skip there; plain builds run them.
 */
#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_INJECTION 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define ALLOC_INJECTION 0
#endif
#endif
#ifndef ALLOC_INJECTION
#define ALLOC_INJECTION 1
#endif

#if ALLOC_INJECTION
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);

void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *ptr, size_t size);
void free(void *ptr);

/*
 * While armed, the allocation after @inject_countdown successful ones fails,
 * and every block handed out is remembered until it is freed.
 */
static bool inject_armed;
static long inject_countdown;
static void *inject_blocks[4096];
static size_t inject_live;
static bool inject_overflow;

static bool inject_fail(void)
{
	if (inject_countdown-- == 0) {
		errno = ENOMEM;
		return true;
	}
	return false;
}

static void inject_track(void *block)
{
	if (!block)
		return;
	if (inject_live == sizeof(inject_blocks) / sizeof(inject_blocks[0])) {
		inject_overflow = true;
		return;
	}
	inject_blocks[inject_live++] = block;
}

static bool inject_untrack(void *block)
{
	size_t i;

	for (i = 0; block && i < inject_live; i++) {
		if (inject_blocks[i] == block) {
			inject_blocks[i] = inject_blocks[--inject_live];
			return true;
		}
	}
	return false;
}

void *malloc(size_t size)
{
	void *block;

	if (!inject_armed)
		return __libc_malloc(size);
	if (inject_fail())
		return NULL;
	block = __libc_malloc(size);
	inject_track(block);
	return block;
}

void *calloc(size_t n, size_t size)
{
	void *block;

	if (!inject_armed)
		return __libc_calloc(n, size);
	if (inject_fail())
		return NULL;
	block = __libc_calloc(n, size);
	inject_track(block);
	return block;
}

void *realloc(void *ptr, size_t size)
{
	bool tracked;
	void *block;

	if (inject_armed && inject_fail())
		return NULL;
	block = __libc_realloc(ptr, size);
	if (!block)
		return NULL;
	tracked = inject_untrack(ptr);
	if (inject_armed || tracked)
		inject_track(block);
	return block;
}

void free(void *ptr)
{
	if (inject_live)
		inject_untrack(ptr);
	__libc_free(ptr);
}

/* Whether our malloc is the one called (valgrind replaces it too). */
static bool inject_works(void)
{
	void *(*volatile probe)(size_t) = malloc;
	void *block;

	inject_countdown = 0;
	inject_armed = true;
	block = probe(16);
	inject_armed = false;
	free(block);
	inject_live = 0;
	return block == NULL;
}
#endif

#if ALLOC_INJECTION
static const char rich_text[] =
	"# a file that takes every allocation path, and stops at its end\n"
	"/srv/a -rw,fsid=1 one(ro,sync,fsid=2) two \\\n"
	"   \"three\"(sync,no_subtree_check)\n"
	"\"/srv/b c\" (rw) -nohide\n"
	"/srv/\\040d host (crossmnt,squash_uids=1)\n"
	"relative h(rw)\n"
	"/srv/e h(rw,mystery)\n";
#endif

static void run_injection(bool from_file)
{
#if ALLOC_INJECTION
	bool succeeded = false;
	char *path;
	long k;

	if (!inject_works())
		cr_skip_test("malloc is replaced here (valgrind?): cannot inject");
	path = write_temp(rich_text, sizeof(rich_text) - 1);

	for (k = 0; k < 100000 && !succeeded; k++) {
		struct bino_exports *exports = NULL;
		enum bino_error created;
		enum bino_error first = BINO_OK;
		enum bino_error ret = BINO_OK;
		size_t count = 0;
		size_t errors = 0;

		/* Only library calls run armed: Criterion allocates too. */
		inject_live = 0;
		inject_overflow = false;
		inject_countdown = k;
		inject_armed = true;
		created = bino_exports_create(&exports);
		if (created == BINO_OK) {
			/* Something already in the table must survive. */
			first = bino_exports_add_buffer(exports, "x", "/z h\n", 5,
							NULL);
			if (first == BINO_OK)
				ret = from_file ?
					bino_exports_add_file(exports, path, NULL) :
					bino_exports_add_buffer(
						exports, "rich", rich_text,
						sizeof(rich_text) - 1, NULL);
			count = bino_exports_count(exports);
			errors = bino_exports_error_count(exports);
			bino_exports_destroy(exports);
		}
		inject_armed = false;

		cr_assert(!inject_overflow);
		cr_expect_eq(inject_live, 0, "allocation %ld: %zu blocks leaked",
			     k, inject_live);
		if (created != BINO_OK || first != BINO_OK) {
			cr_expect_eq(created == BINO_OK ? first : created,
				     BINO_ERROR_NO_MEMORY);
		} else if (ret == BINO_ERROR_EXPORTS_SYNTAX) {
			succeeded = true;
			/* "/z h", then one, two, three, *, *, host and *. */
			cr_expect_eq(count, 8);
			cr_expect_eq(errors, 1);
		} else {
			cr_expect_eq(ret, BINO_ERROR_NO_MEMORY,
				     "allocation %ld: %s", k, bino_strerror(ret));
			cr_expect_eq(count, 1, "allocation %ld: %zu exports", k,
				     count);
		}
	}
	cr_expect(succeeded);
	/* Many allocation points were tried, not just the first few. */
	cr_expect_gt(k, 30, "only %ld allocations", k);
	unlink(path);
	free(path);
#else
	(void)from_file;
	cr_skip_test("allocation failures are injected only without sanitizers");
#endif
}

Test(exports_oom, every_failed_allocation_in_add_buffer_is_no_memory_without_leaks)
{
	run_injection(false);
}

Test(exports_oom, every_failed_allocation_in_add_file_is_no_memory_without_leaks)
{
	run_injection(true);
}

/* ------------------------------------------------------------------------ */
/* The etab exportfs writes (tests/data/etab, see its README.md)            */
/* ------------------------------------------------------------------------ */

/*
 * exportfs writes every option it knows expanded into /var/lib/nfs/etab, a
 * line "PATH<TAB>CLIENT(OPTIONS)" per client: the parser reads a real one
 * whole, each line one export whose path, client and options give the line
 * back (the path with its blank as exportfs escapes it, \040).
 */
Test(exports, an_etab_exportfs_wrote_is_read_whole_line_by_line)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;
	char path[4096], *text, *line, *save = NULL;
	size_t length, i = 0;

	snprintf(path, sizeof(path), "%s/etab/debian12-nfs-utils-2.6.2.etab",
		 data_dir());
	text = read_all(path, &length);
	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_file(exports, path, &err), BINO_OK,
		     "%s:%u:%u: %s", err.file, err.line, err.column, err.message);
	cr_expect_eq(bino_exports_warning_count(exports), 0);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), i++) {
		const struct bino_export *e = bino_exports_get(exports, i);
		char *again = NULL, *escaped = NULL, *p;

		cr_assert_not_null(e, "line %zu has no export", i + 1);
		cr_assert(asprintf(&escaped, "%s", bino_export_path(e)) > 0);
		p = strchr(escaped, ' ');
		if (p) {
			*p = '\0';
			cr_assert(asprintf(&again, "%s\\040%s\t%s(%s)", escaped,
					   p + 1, bino_export_client(e),
					   bino_export_options(e)) > 0);
		} else {
			cr_assert(asprintf(&again, "%s\t%s(%s)", escaped,
					   bino_export_client(e),
					   bino_export_options(e)) > 0);
		}
		cr_expect_str_eq(again, line);
		cr_expect_eq(bino_export_line(e), i + 1);
		free(again);
		free(escaped);
	}
	cr_expect_eq(bino_exports_count(exports), i);
	cr_expect_eq(i, 10);
	bino_exports_destroy(exports);
	free(text);
}
