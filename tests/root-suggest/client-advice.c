/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * audit's client advice (cli/audit/audit_client.c) for an NFS mount made up on
 * the command line, as the text report prints it: the client view needs a
 * real NFS mount (tests/vm has them), the advice only what the audit found.
 * The library's accessors are stood in for by the few below; audit_client.c
 * and the output and quoting it uses are the CLI's own.
 *
 * Usage: client-advice SOURCE TARGET OPTIONS [SUBVOLUME_PATH...]
 * (the mount's source "host:/path", its mount point and options; each path
 * a client path below TARGET that the client shows as a plain directory).
 * With CLIENT_ADVICE_FAIL_ALLOCATION=N in the environment, the Nth
 * allocation of the advice fails, as when memory runs out there (not
 * under a sanitizer, whose allocator this would bypass).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "audit_client.h"
#include "report.h"

struct bino_mount {
	const char *source, *target, *options;
};

struct bino_audit_subvol {
	const char *path;
};

struct bino_audit_target {
	struct bino_mount mount;
	struct bino_audit_subvol *subvols;
	size_t n_subvols;
};

const struct bino_mount *bino_audit_target_mount(const struct bino_audit_target *t)
{
	return &t->mount;
}

bool bino_audit_target_client_view(const struct bino_audit_target *t)
{
	(void)t;
	return true;
}

const char *bino_mount_source(const struct bino_mount *m)
{
	return m->source;
}

const char *bino_mount_target(const struct bino_mount *m)
{
	return m->target;
}

const char *bino_mount_options(const struct bino_mount *m)
{
	return m->options;
}

size_t bino_audit_target_subvol_count(const struct bino_audit_target *t)
{
	return t->n_subvols;
}

const struct bino_audit_subvol *bino_audit_target_subvol(const struct bino_audit_target *t,
							  size_t i)
{
	return &t->subvols[i];
}

const char *bino_audit_subvol_path(const struct bino_audit_subvol *s)
{
	return s->path;
}

bool bino_audit_subvol_own_filesystem(const struct bino_audit_subvol *s)
{
	(void)s;
	return false;
}

uint64_t bino_audit_subvol_client_dev(const struct bino_audit_subvol *s)
{
	(void)s;
	return 0;
}

const char *bino_audit_target_path(const struct bino_audit_target *t)
{
	return t->mount.target;
}

int bino_audit_target_errno(const struct bino_audit_target *t)
{
	(void)t;
	return 0;
}

bool audit_target_unsafe(const struct bino_audit_target *t)
{
	(void)t;
	return true;
}

void print_mount_text(struct output *out, const struct bino_mount *m)
{
	print_string(out, PRINT_TEXT, NULL, "%s", m->target);
}

/* Allocations left before the one that fails; 0: none fails. */
static long fail_countdown;

/*
 * Not under AddressSanitizer: it owns malloc, and one defined here beside
 * it aborts the program before main (the test skips the injection there).
 */
#ifndef __SANITIZE_ADDRESS__
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);

void *malloc(size_t size);
void *calloc(size_t n, size_t size);
void *realloc(void *ptr, size_t size);


static bool fail_now(void)
{
	if (fail_countdown <= 0 || --fail_countdown > 0)
		return false;
	errno = ENOMEM;
	return true;
}

void *malloc(size_t size)
{
	return fail_now() ? NULL : __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	return fail_now() ? NULL : __libc_calloc(n, size);
}

void *realloc(void *ptr, size_t size)
{
	return fail_now() ? NULL : __libc_realloc(ptr, size);
}
#endif

int main(int argc, char **argv)
{
	const char *fail = getenv("CLIENT_ADVICE_FAIL_ALLOCATION");
	struct bino_audit_target target;
	struct output *out;
	int i;

	if (argc < 4) {
		fputs("usage: client-advice SOURCE TARGET OPTIONS [SUBVOLUME_PATH...]\n", stderr);
		return 2;
	}
	target.mount = (struct bino_mount){ argv[1], argv[2], argv[3] };
	target.n_subvols = (size_t)(argc - 4);
	target.subvols = calloc(target.n_subvols + 1, sizeof(*target.subvols));
	if (!target.subvols)
		return 2;
	for (i = 4; i < argc; i++)
		target.subvols[i - 4].path = argv[i];
	out = output_create(OUTPUT_TEXT, stdout);
	if (!out)
		return 2;
	output_begin(out);
	fail_countdown = fail ? atol(fail) : 0;
	i = audit_client_advice(out, &target);
	fail_countdown = 0;
	if (output_end(out) != 0)
		i = -1;
	output_destroy(out);
	free(target.subvols);
	return i ? 2 : 0;
}
