/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libFuzzer target for bino_mounts_read() and bino_mounts_create() on a
 * mountinfo file (the `audit --mountinfo FILE` input): any bytes, through a
 * memfd so no disk is touched.  Both return only what their documentation
 * lists, and the same; a syntax error names the file, a line of it and a
 * column; a success keeps the API's promises: every index below the count
 * gives a mount with non-NULL strings and a mount ID, the count gives NULL,
 * and lookup by ID finds a mount with that ID.  Built by tests/fuzz/run.sh.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "btrfsino.h"

#define CHECK(cond)                                                     \
	do {                                                            \
		if (!(cond))                                            \
			abort();                                        \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int memfd = -1;
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bino_mounts *mounts = NULL, *created = NULL;
	struct bino_syntax_error syntax;
	enum bino_error err, create_err;
	size_t count, i;

	if (memfd < 0) {
		memfd = memfd_create("mountinfo", MFD_CLOEXEC);
		CHECK(memfd >= 0);
		snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	}
	CHECK(ftruncate(memfd, 0) == 0);
	CHECK(pwrite(memfd, data, size, 0) == (ssize_t)size);

	memset(&syntax, 0, sizeof(syntax));
	err = bino_mounts_read(path, &syntax, &mounts);
	CHECK(err == BINO_OK || err == BINO_ERROR_MOUNTINFO_FAILED ||
	      err == BINO_ERROR_MOUNTINFO_SYNTAX || err == BINO_ERROR_NO_MEMORY);
	if (err == BINO_ERROR_MOUNTINFO_SYNTAX) {
		size_t lines = 1;

		for (i = 0; i < size; i++)
			lines += data[i] == '\n';
		CHECK(strcmp(syntax.file, path) == 0);
		CHECK(syntax.message[0]);
		CHECK(syntax.line >= 1 && syntax.line <= lines);
		CHECK(syntax.column >= 1);
	}
	/* bino_mounts_create(): the same answer, as documented, without where. */
	create_err = bino_mounts_create(path, &created);
	CHECK(create_err == BINO_OK || create_err == BINO_ERROR_NO_MEMORY ||
	      create_err == BINO_ERROR_MOUNTINFO_FAILED ||
	      create_err == BINO_ERROR_MOUNTINFO_SYNTAX);
	CHECK(create_err == err || err == BINO_ERROR_NO_MEMORY ||
	      create_err == BINO_ERROR_NO_MEMORY);
	if (create_err == BINO_OK) {
		CHECK(bino_mounts_count(created) == bino_mounts_count(mounts));
		bino_mounts_destroy(created);
	}
	if (err != BINO_OK)
		return 0;
	count = bino_mounts_count(mounts);
	for (i = 0; i < count; i++) {
		const struct bino_mount *m = bino_mounts_get(mounts, i);
		const struct bino_mount *by_id;

		CHECK(m);
		CHECK(bino_mount_id(m) != 0);
		CHECK(bino_mount_root(m) && bino_mount_target(m) &&
		      bino_mount_fstype(m) && bino_mount_source(m) &&
		      bino_mount_options(m));
		/* Touch every byte, for ASan. */
		CHECK(strlen(bino_mount_root(m)) + strlen(bino_mount_target(m)) +
			      strlen(bino_mount_fstype(m)) +
			      strlen(bino_mount_source(m)) +
			      strlen(bino_mount_options(m)) <
		      size + 5);
		by_id = bino_mounts_find_id(mounts, bino_mount_id(m));
		CHECK(by_id && bino_mount_id(by_id) == bino_mount_id(m));
		CHECK(bino_mounts_find_dev(mounts, bino_mount_dev(m)));
		(void)bino_mount_parent_id(m);
		(void)bino_mount_subvolid(m);
	}
	CHECK(!bino_mounts_get(mounts, count));
	bino_mounts_destroy(mounts);
	return 0;
}
