/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Specification of the one model of exports(5) options (exports_options.c):
 * what each setting is for an entry, as exportfs writes it into the etab,
 * and the flags the suggestions read, which come from the same settings.
 */
#include "btrfsino.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

static struct bino_exports *parse(const char *text)
{
	struct bino_exports *exports;
	struct bino_syntax_error err;

	cr_assert_eq(bino_exports_create(&exports), BINO_OK);
	cr_assert_eq(bino_exports_add_buffer(exports, "test.exports", text,
					     strlen(text), &err),
		     BINO_OK, "%s:%u:%u: %s", err.file, err.line, err.column,
		     err.message);
	return exports;
}

/* The value of setting @name for the first entry of @text. */
static const char *setting(const char *text, const char *name)
{
	static char value[256];
	struct bino_exports *exports = parse(text);
	size_t i;

	for (i = 0; i < bino_export_setting_count(); i++) {
		if (strcmp(bino_export_setting_name(i), name) == 0)
			break;
	}
	cr_assert_lt(i, bino_export_setting_count(), "no setting %s", name);
	snprintf(value, sizeof(value), "%s",
		 bino_export_setting(bino_exports_get(exports, 0), i));
	bino_exports_destroy(exports);
	return value;
}

Test(export_settings, twenty_one_named_in_the_etab_order)
{
	cr_assert_eq(bino_export_setting_count(), 21);
	cr_assert_str_eq(bino_export_setting_name(0), "access");
	cr_assert_str_eq(bino_export_setting_name(4), "crossmnt");
	cr_assert_str_eq(bino_export_setting_name(20), "replicas");
	cr_assert_null(bino_export_setting_name(21));
}

Test(export_settings, an_option_not_written_has_its_default)
{
	cr_assert_str_eq(setting("/a h(rw)\n", "crossmnt"), "nocrossmnt");
	cr_assert_str_eq(setting("/a h(rw)\n", "sec"), "sys");
	cr_assert_str_eq(setting("/a h\n", "access"), "ro");
}

Test(export_settings, later_options_win_and_defaults_come_first)
{
	cr_assert_str_eq(setting("/a h(crossmnt,nocrossmnt)\n", "crossmnt"), "nocrossmnt");
	cr_assert_str_eq(setting("/a -rw h(ro)\n", "access"), "ro");
	cr_assert_str_eq(setting("/a -crossmnt h(rw)\n", "crossmnt"), "crossmnt");
}

Test(export_settings, synonyms_are_written_as_the_etab_writes_them)
{
	cr_assert_str_eq(setting("/a h(auth_nlm)\n", "locks"), "secure_locks");
	cr_assert_str_eq(setting("/a h(no_auth_nlm)\n", "locks"), "insecure_locks");
	cr_assert_str_eq(setting("/a h(mp)\n", "mountpoint"), "mountpoint");
	cr_assert_str_eq(setting("/a h(mp=/x)\n", "mountpoint"), "/x");
}

Test(export_settings, numbers_are_decimal_and_fsid_root_is_0)
{
	cr_assert_str_eq(setting("/a h(fsid=root)\n", "fsid"), "0");
	cr_assert_str_eq(setting("/a h(fsid=0x10)\n", "fsid"), "16");
	cr_assert_str_eq(setting("/a h(anonuid=0100)\n", "anonuid"), "100");
}

Test(export_settings, sec_flavours_are_joined_in_order)
{
	cr_assert_str_eq(setting("/a h(sec=krb5,rw,sec=sys)\n", "sec"), "krb5:sys");
}

Test(export_settings, an_option_of_no_setting_is_kept_once_as_written)
{
	struct bino_exports *exports = parse("/a h(squash_uids=5,rw,squash_uids=5)\n");
	const struct bino_export *e = bino_exports_get(exports, 0);

	cr_assert_eq(bino_export_other_count(e), 1);
	cr_assert_str_eq(bino_export_other(e, 0), "squash_uids=5");
	cr_assert_null(bino_export_other(e, 1));
	bino_exports_destroy(exports);
}

Test(export_settings, flags_come_from_the_same_settings)
{
	struct bino_exports *exports =
		parse("/a h(rw,crossmnt,nohide,subtree_check,fsid=1) k(crossmnt,nocrossmnt)\n");

	cr_assert_eq(bino_export_flags(bino_exports_get(exports, 0)),
		     BINO_EXPORT_CROSSMNT | BINO_EXPORT_NOHIDE |
			     BINO_EXPORT_SUBTREE_CHECK | BINO_EXPORT_FSID);
	cr_assert_eq(bino_export_flags(bino_exports_get(exports, 1)), BINO_EXPORT_RO);
	bino_exports_destroy(exports);
}
