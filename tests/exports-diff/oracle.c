/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The differential test's oracle: nfs-utils' own exports(5) reader, built
 * from Debian 12's nfs-utils source package at test time (run.sh fetches it;
 * nothing of nfs-utils is kept in this repository).  It includes
 * support/nfs/exports.c whole and calls getexportent(0, 1) the way
 * export_read() does, until it returns NULL, printing each entry as ours.c
 * prints ours.  Links with support/nfs/xio.c; the helpers the two need from
 * the rest of nfs-utils (xlog, xmalloc) are the trivial ones below.
 *
 * realpath() is replaced by one that fails, so that paths are compared as
 * written (exportfs resolves symbolic links of the machine it runs on).
 */
#define realpath oracle_realpath
#define xgettok oracle_xgettok
#include "exports.c"
#undef realpath
#undef xgettok

#include <stdarg.h>

#include "print.h"

char *oracle_realpath(const char *path, char *resolved)
{
	(void)path;
	(void)resolved;
	return NULL;
}

static int errors_logged;
static bool word_too_long;

/* xgettok(), noting a word too long: getpath() then stops without a word. */
int oracle_xgettok(XFILE *xfp, char sepa, char *tok, int len)
{
	int ok = xgettok(xfp, sepa, tok, len);

	if (ok < 0)
		word_too_long = true;
	return ok;
}

void xlog(int kind, const char *fmt, ...)
{
	va_list ap;

	if (kind & L_ERROR)
		errors_logged++;
	if (getenv("ORACLE_VERBOSE")) {
		va_start(ap, fmt);
		vfprintf(stderr, fmt, ap);
		va_end(ap);
		fputc('\n', stderr);
	}
}

void *xmalloc(size_t size)
{
	void *p = malloc(size);

	if (!p)
		abort();
	return p;
}

void *xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size);

	if (!p)
		abort();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		abort();
	return p;
}

/*
 * Never freed: exports.c frees the squash_uids= arrays twice when an error
 * follows them in the same entry (freesquash() after parsesquash()'s own
 * xfree()), and the oracle must live to say where it stopped.
 */
void xfree(void *ptr)
{
	(void)ptr;
}

/*
 * getexportent() tests exp[0] == '-' also when getexport() wrote nothing
 * into exp (an empty word: end of line), so it reads a stack byte left by
 * whatever ran before.  Zero the stack it is about to use, so that the
 * oracle reads "no word" there as we do.
 */
static __attribute__((noinline)) void scrub_stack(void)
{
	volatile char area[64 * 1024];
	size_t i;

	for (i = 0; i < sizeof(area); i++)
		area[i] = 0;
}

static void put_entry(const struct exportent *ee)
{
	int flags = ee->e_flags;
	const struct sec_entry *s;

	/* The audit leaves relative paths out (see btrfsino.h). */
	if (ee->e_path[0] != '/')
		return;
	put_field(ee->e_path);
	putchar('\t');
	put_field(ee->e_hostname[0] ? ee->e_hostname : "*");
	printf("\t%s%s%s%s\t", flags & NFSEXP_READONLY ? "ro" : "rw",
	       flags & NFSEXP_CROSSMOUNT ? ",crossmnt" : "",
	       flags & NFSEXP_NOHIDE ? ",nohide" : "",
	       flags & NFSEXP_NOSUBTREECHECK ? "" : ",subtree_check");
	if ((flags & NFSEXP_FSID) && ee->e_uuid)
		printf("both");
	else if (flags & NFSEXP_FSID)
		printf("num=%d", ee->e_fsid);
	else if (ee->e_uuid) {
		printf("uuid=");
		put_field(ee->e_uuid);
	} else
		putchar('-');
	putchar('\t');
	for (s = ee->e_secinfo; s->flav; s++)
		printf("%s%s", s == ee->e_secinfo ? "" : ":", s->flav->flavour);
	if (!ee->e_secinfo[0].flav)
		putchar('-');
	putchar('\n');
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		struct exportent *ee;
		bool stopped;

		errors_logged = 0;
		word_too_long = false;
		setexportent(argv[i], "r");
		if (!efp)
			return 2;
		printf("file %s\n", argv[i]);
		for (;;) {
			scrub_stack();
			ee = getexportent(0, 1);
			if (!ee)
				break;
			put_entry(ee);
		}
		/* Where it stopped: an error, or text it did not read. */
		xskip(efp, " \t\n");
		stopped = errors_logged || word_too_long || xgetc(efp) != EOF;
		printf("end %s\n", stopped ? "stopped" : "eof");
		endexportent();
	}
	return 0;
}
