/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * How suggest quotes a name for each file format: every quoting is read back
 * by the format's real reader where this machine has one (our exports(5)
 * parser, util-linux's libmount for fstab, systemd-escape for unit names,
 * sh for shell words), so the reader gives back exactly the name's bytes;
 * and which names each format refuses instead (quote_*_refusal()).
 */
#include <criterion/criterion.h>
#include <libmount.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "btrfsino.h"
#include "quote.h"

/* Names with what each format must quote: blanks, controls, '#', quotes... */
static const char *const hostile[] = {
	"/srv/plain",
	"/srv/sp ace",
	"/srv/tab\there",
	"/srv/new\nline",
	"/srv/back\\slash",
	"/srv/hash#mark",
	"/srv/dq\"uote",
	"/srv/sq'uote",
	"/srv/per%cent",
	"/srv/amp&er",
	"/srv/dash-name",
	"/srv/.snapshot/s1",
	"/.hidden/x",
	"/srv/bad\xff\x80utf8",
	"/srv/caf\xc3\xa9",
	"/srv/del\x7f",
	"/srv/ctl\x01\x1f",
	"/srv/colon:under_score",
};

#define N_HOSTILE (sizeof(hostile) / sizeof(hostile[0]))

/* What @quote writes for @s, malloc'ed. */
static char *quoted(void (*quote)(FILE *, const char *), const char *s)
{
	char *text;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert_not_null(out);
	quote(out, s);
	cr_assert_eq(fclose(out), 0);
	return text;
}

/* The standard output of @argv run with no shell, malloc'ed; exit 0 asserted. */
static char *run(char *const argv[])
{
	int fds[2], status;
	char *text;
	size_t len;
	FILE *out = open_memstream(&text, &len);
	char buf[4096];
	ssize_t n;
	pid_t pid;

	cr_assert_not_null(out);
	cr_assert_eq(pipe(fds), 0);
	pid = fork();
	cr_assert_neq(pid, -1);
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, out);
	close(fds[0]);
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert_eq(fclose(out), 0);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "%s failed (status %d)", argv[0], status);
	return text;
}

Test(quote_exports_path, is_read_back_by_the_exports_parser)
{
	for (size_t i = 0; i < N_HOSTILE; i++) {
		struct bino_exports *exports;
		struct bino_syntax_error err;
		char *path = quoted(quote_exports_path, hostile[i]), *line;

		cr_assert_gt(asprintf(&line, "%s host(rw)\n", path), 0);
		cr_assert_eq(bino_exports_create(&exports), BINO_OK);
		cr_assert_eq(bino_exports_add_buffer(exports, "q.exports", line,
						     strlen(line), &err),
			     BINO_OK, "%s: %s", line, err.message);
		cr_assert_eq(bino_exports_count(exports), 1, "%s", line);
		cr_expect_str_eq(bino_export_path(bino_exports_get(exports, 0)),
				 hostile[i], "%s", line);
		cr_expect_str_eq(bino_export_client(bino_exports_get(exports, 0)),
				 "host", "%s", line);
		bino_exports_destroy(exports);
		free(line);
		free(path);
	}
}

Test(quote_fstab_field, is_read_back_by_libmount)
{
	char name[] = "/tmp/test_quote_fstab.XXXXXX";
	int fd = mkstemp(name);
	FILE *f = fdopen(fd, "w");
	struct libmnt_table *tab;
	struct libmnt_iter *itr;
	struct libmnt_fs *fs;
	size_t i;

	cr_assert_not_null(f);
	for (i = 0; i < N_HOSTILE; i++) {
		fputs("UUID=1 ", f);
		quote_fstab_field(f, hostile[i]);
		fputs(" btrfs rw,subvolid=257 0 0\n", f);
	}
	cr_assert_eq(fclose(f), 0);
	tab = mnt_new_table_from_file(name);
	unlink(name);
	cr_assert_not_null(tab);
	itr = mnt_new_iter(MNT_ITER_FORWARD);
	for (i = 0; mnt_table_next_fs(tab, itr, &fs) == 0; i++) {
		cr_assert_lt(i, N_HOSTILE);
		cr_expect_str_eq(mnt_fs_get_target(fs), hostile[i]);
		cr_expect_str_eq(mnt_fs_get_fstype(fs), "btrfs");
	}
	cr_expect_eq(i, N_HOSTILE, "libmount read %zu lines", i);
	mnt_free_iter(itr);
	mnt_unref_table(tab);
}

Test(quote_fstab_field, escapes_blanks_and_hash_as_three_octal_digits)
{
	char *got = quoted(quote_fstab_field, "a b\tc#d\\e");

	cr_assert_str_eq(got, "a\\040b\\011c\\043d\\134e");
	free(got);
}

Test(quote_mount_unit_name, matches_systemd_escape_path_suffix_mount)
{
	for (size_t i = 0; i < N_HOSTILE; i++) {
		char *got = quoted(quote_mount_unit_name, hostile[i]);
		char *argv[] = { "systemd-escape", "--path", "--suffix=mount",
				 (char *)hostile[i], NULL };
		char *want = run(argv);

		/* systemd-escape ends its line with a newline. */
		cr_assert_gt(strlen(want), 0);
		want[strlen(want) - 1] = '\0';
		cr_expect_str_eq(got, want, "path %zu", i);
		free(want);
		free(got);
	}
}

Test(quote_mount_unit_name, is_unescaped_by_systemd_escape_to_the_path)
{
	for (size_t i = 0; i < N_HOSTILE; i++) {
		char *name = quoted(quote_mount_unit_name, hostile[i]);
		char *argv[] = { "systemd-escape", "--path", "--unescape", name,
				 NULL };
		char *back;

		cr_assert(strlen(name) > 6);
		name[strlen(name) - strlen(".mount")] = '\0';
		back = run(argv);
		cr_assert_gt(strlen(back), 0);
		back[strlen(back) - 1] = '\0';
		cr_expect_str_eq(back, hostile[i], "path %zu", i);
		free(back);
		free(name);
	}
}

Test(quote_mount_unit_name, names_the_root_and_collapses_repeated_slashes)
{
	char *root = quoted(quote_mount_unit_name, "/");
	char *slashes = quoted(quote_mount_unit_name, "//srv//a/");

	cr_expect_str_eq(root, "-.mount");
	cr_expect_str_eq(slashes, "srv-a.mount");
	free(root);
	free(slashes);
}

Test(quote_sh_word, is_read_back_by_sh)
{
	for (size_t i = 0; i < N_HOSTILE; i++) {
		char *word = quoted(quote_sh_word, hostile[i]), *script, *got;
		char *argv[] = { "sh", "-c", NULL, NULL };

		cr_assert_gt(asprintf(&script, "printf %%s %s", word), 0);
		argv[2] = script;
		got = run(argv);
		cr_expect_str_eq(got, hostile[i], "%s", script);
		free(got);
		free(script);
		free(word);
	}
}

/*
 * autofs(5): automount is read back by the root suite's oracle
 * (tests/root-suggest/autofs-oracle.c, Debian's own libraries); here, the
 * quoting rules of quote.h, literally.
 */
Test(quote_autofs_path, leaves_a_path_of_plain_bytes_alone)
{
	char *got = quoted(quote_autofs_path, "/srv/a.b-c_d+e,f=g@h%i~j/k");

	cr_assert_str_eq(got, "/srv/a.b-c_d+e,f=g@h%i~j/k");
	free(got);
}

Test(quote_autofs_path, quotes_all_but_the_leading_slash_of_any_other)
{
	static const char *const in[] = { "/a b", "/a${x", "/dol$HOME", "/colon:x",
					  "/amp&x", "/a#b", "/a\\b", "/caf\xc3\xa9",
					  "/sq'uote", "a b", "/" };
	static const char *const want[] = { "/\"a b\"", "/\"a${x\"", "/\"dol$HOME\"",
					     "/\"colon:x\"", "/\"amp&x\"", "/\"a#b\"",
					     "/\"a\\b\"", "/\"caf\xc3\xa9\"",
					     "/\"sq'uote\"", "\"a b\"", "/" };

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *got = quoted(quote_autofs_path, in[i]);

		cr_expect_str_eq(got, want[i]);
		free(got);
	}
}

Test(quote_autofs_location, quotes_host_and_path_together_or_not_at_all)
{
	static const char *const in[] = { "/srv/plain", "/srv/a b", "/srv/colon:x",
					  "/srv/dol$HOME" };
	static const char *const want[] = { "srv:/srv/plain", "\"srv:/srv/a b\"",
					     "\"srv:/srv/colon:x\"",
					     "\"srv:/srv/dol$HOME\"" };

	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		char *text;
		size_t len;
		FILE *out = open_memstream(&text, &len);

		cr_assert_not_null(out);
		quote_autofs_location(out, "srv", in[i]);
		cr_assert_eq(fclose(out), 0);
		cr_expect_str_eq(text, want[i]);
		free(text);
	}
}

Test(quote_unit_value, doubles_the_percent_sign_only)
{
	char *got = quoted(quote_unit_value, "/srv/100% a\\b'%n");

	cr_assert_str_eq(got, "/srv/100%% a\\b'%%n");
	free(got);
}

/*
 * Which names each format refuses (quote.h): the names issue 28 lists, each
 * either refused or read back exactly.
 */
static const char *const listed[] = {
	"/srv/new\nline", "/srv/tab\there", "/srv/sp ace", "/srv/back\\slash",
	"/srv/..\\057..\\057..", "/srv/hash#mark", "/srv/com,ma",
	"/srv/eq=ual", "/srv/per%cent", "/srv/bad\xff\xc3utf8",
	"/srv/-leading-dash", "/srv/trailing space ", "/srv/ends-in\\",
	"/srv/j\n[Install]\nAlso=debug-shell.service\nX-z=", "/srv/back\\8",
};

#define N_LISTED (sizeof(listed) / sizeof(listed[0]))

/* Whether @s is one of the @n names in @set. */
static bool one_of(const char *s, const char *const *set, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (strcmp(s, set[i]) == 0)
			return true;
	}
	return false;
}

Test(quote_exports_refusal, refuses_a_newline_and_a_backslash_before_three_octal_digits_below_400_only)
{
	static const char *const refused[] = {
		"/srv/new\nline", "/srv/..\\057..\\057..",
		"/srv/j\n[Install]\nAlso=debug-shell.service\nX-z=",
	};

	for (size_t i = 0; i < N_LISTED; i++)
		cr_expect_eq(quote_exports_refusal(listed[i]) != NULL,
			     one_of(listed[i], refused, 3), "name %zu", i);
}

Test(quote_exports_refusal, takes_a_backslash_before_digits_xgettok_leaves_alone)
{
	static const char *const taken[] = { "/srv/a\\3b", "/srv/\\34x", "/srv/\\400",
					     "/srv/\\3", "/srv/\\8", "/srv/\\0" };
	static const char *const refused[] = { "/srv/\\340", "/srv/\\000", "/srv/\\377x",
					       "/srv/a\\\\0123" };

	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		cr_expect_null(quote_exports_refusal(taken[i]), "%s", taken[i]);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		cr_expect_not_null(quote_exports_refusal(refused[i]), "%s", refused[i]);
}

Test(quote_exports_refusal, refuses_a_path_longer_than_nfs_maxpathlen)
{
	char path[1026];

	memset(path, 'a', sizeof(path) - 1);
	path[0] = '/';
	path[1024] = '\0';
	cr_expect_null(quote_exports_refusal(path));
	path[1024] = 'a';
	path[1025] = '\0';
	cr_expect_not_null(quote_exports_refusal(path));
}

/* The library's parser decodes as nfs-utils' xgettok() (test_exports.c). */
Test(quote_exports_refusal, every_name_not_refused_is_read_back_exactly)
{
	for (size_t i = 0; i < N_LISTED; i++) {
		struct bino_exports *exports;
		struct bino_syntax_error err;
		char *path, *line;

		if (quote_exports_refusal(listed[i]))
			continue;
		path = quoted(quote_exports_path, listed[i]);
		cr_assert_gt(asprintf(&line, "%s host(rw)\n", path), 0);
		cr_assert_eq(bino_exports_create(&exports), BINO_OK);
		cr_assert_eq(bino_exports_add_buffer(exports, "q.exports", line,
						     strlen(line), &err),
			     BINO_OK, "%s: %s", line, err.message);
		cr_assert_eq(bino_exports_count(exports), 1, "%s", line);
		cr_expect_str_eq(bino_export_path(bino_exports_get(exports, 0)),
				 listed[i], "%s", line);
		bino_exports_destroy(exports);
		free(line);
		free(path);
	}
}

Test(quote_mount_unit_refusal, refuses_control_bytes_bad_utf8_and_a_trailing_blank_or_backslash)
{
	static const char *const refused[] = {
		"/srv/new\nline", "/srv/tab\there", "/srv/bad\xff\xc3utf8",
		"/srv/trailing space ", "/srv/ends-in\\",
		"/srv/j\n[Install]\nAlso=debug-shell.service\nX-z=",
	};

	for (size_t i = 0; i < N_LISTED; i++)
		cr_expect_eq(quote_mount_unit_refusal(listed[i]) != NULL,
			     one_of(listed[i], refused, 6), "name %zu", i);
}

Test(quote_mount_unit_refusal, refuses_a_unit_name_longer_than_255_bytes)
{
	char path[300];

	memset(path, 'a', sizeof(path));
	path[0] = '/';
	path[249] = '\0'; /* 248 letters + ".mount" = 254 */
	cr_expect_null(quote_mount_unit_refusal(path));
	path[249] = 'a';
	path[251] = '\0'; /* 256 */
	cr_expect_not_null(quote_mount_unit_refusal(path));
	path[251] = 'a';
	path[5] = '-'; /* escaped as \x2d: 4 bytes */
	path[248] = '\0';
	cr_expect_not_null(quote_mount_unit_refusal(path));
}

Test(quote_autofs_refusal, refuses_control_bytes_double_quotes_and_a_blank_before_slash_or_dash)
{
	static const char *const refused[] = {
		"/srv/new\nline", "/srv/tab\there",
		"/srv/j\n[Install]\nAlso=debug-shell.service\nX-z=",
	};
	static const char *const more[] = { "/srv/dq\"uote", "/srv/a /b", "/srv/a  -b",
					    "/srv/a -/b" };
	static const char *const accepted[] = { "/srv/a b", "/srv/a- b", "/srv/a b-",
						"/srv/trailing ", "/srv/a${x" };

	for (size_t i = 0; i < N_LISTED; i++)
		cr_expect_eq(quote_autofs_refusal(listed[i]) != NULL,
			     one_of(listed[i], refused, 3), "name %zu", i);
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		cr_expect_not_null(quote_autofs_refusal(more[i]), "%s", more[i]);
	for (size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++)
		cr_expect_null(quote_autofs_refusal(accepted[i]), "%s", accepted[i]);
}

Test(quote_autofs_root_refusal, also_refuses_blanks_and_backslashes)
{
	cr_expect_null(quote_autofs_root_refusal("/srv/a${x:y&z#"));
	cr_expect_not_null(quote_autofs_root_refusal("/srv/a b"));
	cr_expect_not_null(quote_autofs_root_refusal("/srv/trailing "));
	cr_expect_not_null(quote_autofs_root_refusal("/srv/back\\slash"));
	cr_expect_not_null(quote_autofs_root_refusal("/srv/new\nline"));
}

Test(quote_autofs_entry_refusal, refuses_an_entry_longer_than_16384_bytes)
{
	cr_expect_null(quote_autofs_entry_refusal(16384));
	cr_expect_not_null(quote_autofs_entry_refusal(16385));
}

Test(quote_autofs_key_refusal, refuses_a_key_longer_than_255_bytes_as_written)
{
	char key[300];

	memset(key, 'a', sizeof(key));
	key[0] = '/';
	key[255] = '\0';
	cr_expect_null(quote_autofs_key_refusal(key));
	key[255] = 'a';
	key[256] = '\0';
	cr_expect_not_null(quote_autofs_key_refusal(key));
	key[5] = '$'; /* quoted: two bytes more */
	key[253] = '\0';
	cr_expect_null(quote_autofs_key_refusal(key));
	key[253] = 'a';
	key[254] = '\0';
	cr_expect_not_null(quote_autofs_key_refusal(key));
	cr_expect_not_null(quote_autofs_key_refusal("/srv/dq\"uote"));
}

Test(quote_comment, is_one_line_with_control_bytes_and_backslash_as_octal)
{
	char *got = quoted(quote_comment, "/a\nb\tc d\\057#\x7f\xff");

	cr_assert_str_eq(got, "/a\\012b\\011c d\\134057#\\177\xff");
	free(got);
}
