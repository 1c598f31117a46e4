/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What an NFS client sees of an export (nfsview.c): the export table with
 * resolved paths, the server mounts below an export, and the crossing rule.
 */
#ifndef BINO_NFSVIEW_H
#define BINO_NFSVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "internal.h"

/* ---- exported paths, resolved ------------------------------------------ */

/* The export table with every path resolved by realpath(3). */
struct nfsview_exports;

/* @exports may be NULL (an empty table).  BINO_OK or BINO_ERROR_NO_MEMORY. */
BINO_WARN_UNUSED
enum bino_error bino__nfsview_exports_create(const struct bino_exports *exports,
					     struct nfsview_exports **ret);
void bino__nfsview_exports_destroy(struct nfsview_exports *resolved);
size_t bino__nfsview_exports_count(const struct nfsview_exports *resolved);
/* The resolved path of the @index'th export (as written if unresolvable). */
const char *bino__nfsview_exports_path(const struct nfsview_exports *resolved,
				       size_t index);
const struct bino_export *
bino__nfsview_exports_get(const struct nfsview_exports *resolved, size_t index);

/* ---- server mounts ------------------------------------------------------ */

/* A server as its clients see it: what the crossing rule reads. */
struct nfsview {
	const struct nfsview_exports *exports; /* resolved */
	const struct bino_mounts *mounts; /* the server's table */
	int audit_flags; /* enum bino_audit_flags: the client model */
};

/*
 * What a client of @view sees at server mount @mount (mount point @path),
 * reached in a client filesystem exported with @parent_flags.  For the
 * crossing views, *@child_flags are the export flags of the new client
 * filesystem; else the parent's.
 */
enum bino_submount_view bino__nfsview_cross(const struct nfsview *view,
					    const struct bino_mount *mount,
					    const char *path, int parent_flags,
					    int *child_flags);

/*
 * The index of the export whose resolved path is the nearest directory
 * strictly above @path (resolved), or SIZE_MAX when none is.
 */
size_t bino__nfsview_exports_covering(const struct nfsview_exports *resolved,
				      const char *path);

/*
 * What a client of @view's export of @export_path (flags *@flags) finds at
 * @path below it: *@flags become the export flags that apply there (those
 * of a mount crossed on the way).  False when a server mount on the way is
 * hidden from the client (it sees the directory the mount covers, not
 * @path).
 */
bool bino__nfsview_covered_flags(const struct nfsview *view,
				 const char *export_path, const char *path,
				 int *flags);

/*
 * For @path (resolved), which no line of @view's exports names: the next
 * line, from *@index on, of the nearest export above it whose clients see
 * @path (bino__nfsview_covered_flags()), with the flags they get there in
 * *@flags; *@index is left after it.  NULL when no further line is one.
 * The audit adds each such line, bino_exports_resolve() takes the first.
 */
const struct bino_export *bino__nfsview_covering_next(const struct nfsview *view,
						      const char *path,
						      size_t *index, int *flags);

#endif
