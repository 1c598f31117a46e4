/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading the tables audit and suggest start from, in one place so both
 * commands accept the same files and word their errors alike.
 */
#include "tables.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "btrfs-ino.h"

#define SYSTEM_EXPORTS "/etc/exports"
#define SYSTEM_EXPORTS_GLOB "/etc/exports.d/*.exports"

static int add_exports_file(struct bino_exports *exports, const char *path,
			    bool missing_ok)
{
	struct bino_syntax_error syntax;
	enum bino_error err;

	memset(&syntax, 0, sizeof(syntax));
	err = bino_exports_add_file(exports, path, &syntax);
	if (err == BINO_OK)
		return 0;
	if (err == BINO_ERROR_EXPORTS_SYNTAX) {
		fprintf(stderr, "%s: %s:%u:%u: %s\n", PROGRAM_NAME,
			syntax.file[0] ? syntax.file : path, syntax.line,
			syntax.column, syntax.message);
		return -1;
	}
	if (err == BINO_ERROR_EXPORTS_READ_FAILED && missing_ok &&
	    errno == ENOENT)
		return 0;
	fprintf(stderr, "%s: %s: %s: %s\n", PROGRAM_NAME, path,
		bino_strerror(err), strerror(errno));
	return -1;
}

int read_exports(const char *exports_file, struct bino_exports **ret)
{
	struct bino_exports *exports;
	glob_t found;
	size_t i;
	int rc;

	if (bino_exports_create(&exports) != BINO_OK) {
		fprintf(stderr, "%s: %s\n", PROGRAM_NAME, strerror(ENOMEM));
		return -1;
	}
	if (exports_file) {
		rc = add_exports_file(exports, exports_file, false);
	} else {
		rc = add_exports_file(exports, SYSTEM_EXPORTS, true);
		if (rc == 0 &&
		    glob(SYSTEM_EXPORTS_GLOB, 0, NULL, &found) == 0) {
			for (i = 0; i < found.gl_pathc && rc == 0; i++)
				rc = add_exports_file(exports, found.gl_pathv[i],
						      true);
			globfree(&found);
		}
	}
	if (rc != 0) {
		bino_exports_destroy(exports);
		return -1;
	}
	*ret = exports;
	return 0;
}

int read_mounts(const char *mountinfo_file, struct bino_mounts **ret)
{
	struct bino_syntax_error syntax;
	enum bino_error err;

	memset(&syntax, 0, sizeof(syntax));
	err = bino_mounts_read(mountinfo_file, &syntax, ret);
	if (err == BINO_OK)
		return 0;
	if (err == BINO_ERROR_MOUNTINFO_SYNTAX)
		fprintf(stderr, "%s: %s:%u: %s\n", PROGRAM_NAME, syntax.file,
			syntax.line, syntax.message);
	else
		fprintf(stderr, "%s: %s: %s: %s\n", PROGRAM_NAME,
			mountinfo_file ? mountinfo_file : "mount table",
			bino_strerror(err), strerror(errno));
	return -1;
}

void show_audit_progress(const struct bino_audit_export *exp,
			 uint64_t entries, void *data)
{
	(void)data;
	fprintf(stderr, "\r\033[K%s: auditing %s: %" PRIu64 " entries",
		PROGRAM_NAME, bino_audit_export_path(exp), entries);
	fflush(stderr);
}
