/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How names of arbitrary bytes are written: text escapes, UTF-8, base64. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"

static void assert_text_escape(const char *input, size_t len, const char *want)
{
	char *got = bino__text_escape(input, len);

	cr_assert_str_eq(got, want);
	free(got);
}

Test(text_escape, leaves_plain_ascii_and_valid_utf8_alone)
{
	assert_text_escape("dir/caf\xc3\xa9 x", 11, "dir/caf\xc3\xa9 x");
}

Test(text_escape, escapes_newline_tab_and_backslash)
{
	assert_text_escape("a\nb\tc\\d", 7, "a\\nb\\tc\\\\d");
}

Test(text_escape, escapes_invalid_utf8_bytes_as_hex)
{
	assert_text_escape("x\xff\xc3(", 4, "x\\xff\\xc3(");
}

Test(text_escape, escapes_other_control_characters_as_hex)
{
	assert_text_escape("\x01\x7f", 2, "\\x01\\x7f");
}

Test(utf8_valid, rejects_overlong_surrogate_and_truncated_sequences)
{
	cr_assert(bino__utf8_valid("\xe2\x82\xac", 3));
	cr_assert_not(bino__utf8_valid("\xc0\xaf", 2));
	cr_assert_not(bino__utf8_valid("\xed\xa0\x80", 3));
	cr_assert_not(bino__utf8_valid("\xe2\x82", 2));
	cr_assert_not(bino__utf8_valid("\xf5\x80\x80\x80", 4));
}

Test(utf8_sanitize, replaces_each_invalid_byte_with_u_fffd)
{
	char *got = bino__utf8_sanitize("a\xff" "b\xc3", 4);

	cr_assert_str_eq(got, "a\xef\xbf\xbd" "b\xef\xbf\xbd");
	free(got);
}

Test(base64_encode, matches_rfc4648_test_vectors)
{
	static const char *const inputs[] = { "", "f", "fo", "foo", "foob",
					      "fooba", "foobar" };
	static const char *const outputs[] = { "", "Zg==", "Zm8=", "Zm9v",
					       "Zm9vYg==", "Zm9vYmE=",
					       "Zm9vYmFy" };
	size_t i;

	for (i = 0; i < sizeof(inputs) / sizeof(*inputs); i++) {
		char *got = bino__base64_encode((const unsigned char *)inputs[i],
						strlen(inputs[i]));

		cr_assert_str_eq(got, outputs[i], "input \"%s\"", inputs[i]);
		free(got);
	}
}

/* fstab(5) and exports(5) fields: "\ooo" below \400 is that byte, nothing else changes. */
Test(unescape_octal, decodes_three_octal_digits_and_leaves_other_backslashes)
{
	char s[] = "/a\\040b\\011c\\134d\\400e\\12f\\";

	bino__unescape_octal(s);
	cr_expect_str_eq(s, "/a b\tc\\d\\400e\\12f\\");
}
