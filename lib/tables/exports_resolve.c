/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bino_exports_resolve(): which export's clients reach a path, and with
 * what options, by the rules the audit adds its paths with
 * (bino_audit_add_path(): the path's own export, else the nearest export
 * above it whose clients are not kept out by a hidden server mount on the
 * way), for a caller that acts on exported trees and walks nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "nfsview.h"

/*
 * The export of @table whose clients reach @resolved and the flags they get
 * there, into *@export and *@flags: the first naming it, else the first of
 * the nearest export above it that no hidden mount keeps out.  NULL and 0
 * when none does.
 */
static void resolve_find(const struct nfsview_exports *table,
			 const struct bino_mounts *server_mounts,
			 const char *resolved, const struct bino_export **export,
			 int *flags)
{
	const struct nfsview view = { .exports = table, .mounts = server_mounts };
	size_t i, n = bino__nfsview_exports_count(table);

	for (i = 0; i < n; i++) {
		if (strcmp(bino__nfsview_exports_path(table, i), resolved) == 0) {
			*export = bino__nfsview_exports_get(table, i);
			*flags = bino_export_flags(*export);
			return;
		}
	}
	i = 0;
	*export = bino__nfsview_covering_next(&view, resolved, &i, flags);
	if (!*export)
		*flags = 0;
}

BINO_PUBLIC enum bino_error
bino_exports_resolve(const struct bino_exports *exports,
		     const struct bino_mounts *server_mounts, const char *path,
		     char **resolved_ret, const struct bino_export **entry_ret,
		     int *flags_ret)
{
	struct nfsview_exports *table;
	enum bino_error err;
	char *resolved;

	if (!exports || !server_mounts || !path || !*path || !resolved_ret ||
	    !entry_ret || !flags_ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	resolved = realpath(path, NULL);
	if (!resolved)
		return errno == ENOMEM ? BINO_ERROR_NO_MEMORY :
					 BINO_ERROR_STAT_FAILED;
	err = bino__nfsview_exports_create(exports, &table);
	if (err) {
		free(resolved);
		errno = ENOMEM;
		return err;
	}
	resolve_find(table, server_mounts, resolved, entry_ret, flags_ret);
	bino__nfsview_exports_destroy(table);
	*resolved_ret = resolved;
	return BINO_OK;
}
