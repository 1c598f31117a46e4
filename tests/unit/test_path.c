/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* "Is this path at or below that directory": the edge cases, by components. */
#include <criterion/criterion.h>

#include "path.h"

Test(path, a_directory_is_at_but_not_below_itself)
{
	cr_assert(bino__path_at_or_below("/a", "/a"));
	cr_assert_not(bino__path_below("/a", "/a"));
	cr_assert_str_eq(bino__path_rest("/a", "/a"), "");
}

Test(path, a_child_is_below_and_its_rest_starts_at_the_slash)
{
	cr_assert(bino__path_below("/a/b", "/a"));
	cr_assert_str_eq(bino__path_rest("/a/b/c", "/a"), "/b/c");
}

Test(path, a_sibling_sharing_a_prefix_is_not_below)
{
	cr_assert_null(bino__path_rest("/ab", "/a"));
	cr_assert_null(bino__path_rest("/ab/c", "/a"));
	cr_assert_not(bino__path_below("/a-b", "/a"));
	cr_assert_null(bino__path_rest("/a", "/ab"));
}

Test(path, every_absolute_path_is_at_or_below_the_root)
{
	cr_assert(bino__path_at_or_below("/", "/"));
	cr_assert_not(bino__path_below("/", "/"));
	cr_assert(bino__path_below("/a", "/"));
	cr_assert_str_eq(bino__path_rest("/a/b", "/"), "/a/b");
}

Test(path, trailing_slashes_of_the_directory_are_not_part_of_its_name)
{
	cr_assert_str_eq(bino__path_rest("/a/b", "/a/"), "/b");
	cr_assert_str_eq(bino__path_rest("/a", "/a//"), "");
	cr_assert(bino__path_below("/a/b", "/a/"));
	cr_assert_null(bino__path_rest("/ab", "/a/"));
	cr_assert(bino__path_below("/a", "//"));
}

Test(path, a_trailing_slash_of_the_path_names_nothing_below)
{
	cr_assert(bino__path_at_or_below("/a/", "/a"));
	cr_assert_not(bino__path_below("/a/", "/a"));
	cr_assert_not(bino__path_below("/a//", "/a"));
}

Test(path, a_relative_or_empty_path_is_below_no_absolute_directory)
{
	cr_assert_null(bino__path_rest("a/b", "/a"));
	cr_assert_null(bino__path_rest("", "/a"));
	cr_assert_not(bino__path_below("a", "/"));
}
