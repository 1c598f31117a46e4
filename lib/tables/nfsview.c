/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What an NFS client sees of an export, as the Linux NFS server presents it
 * (exports(5); fs/nfsd/vfs.c nfsd_cross_mnt()).  Components:
 *
 *  - nfsview_exports: the export table with resolved paths, so that a mount
 *    point can be asked whether it is exported (and with nohide).
 *  - The server's mounts are asked of its table, which indexes them by
 *    mount point once (mounts.c): the mount at a directory, those below an
 *    export.
 *  - bino__nfsview_cross(): the crossing rule.  A client crosses into a
 *    server mount when the client filesystem it is in has crossmnt (mountd
 *    then exports the mount with the same options unless it is exported
 *    itself), when the mount point is exported with nohide, and (NFSv4) when
 *    the mount point is exported at all.  Otherwise the client sees the
 *    directory underneath: knfsd never crosses, it serves the covered inode.
 */
#include "nfsview.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "mounts.h"
#include "path.h"

/* ---- exported paths ---------------------------------------------------- */

struct nfsview_exports {
	const struct bino_exports *exports;
	char **paths; /* resolved, one per export */
	size_t count;
};

enum bino_error bino__nfsview_exports_create(const struct bino_exports *exports,
					     struct nfsview_exports **ret)
{
	struct nfsview_exports *resolved = calloc(1, sizeof(*resolved));
	size_t i, n = exports ? bino_exports_count(exports) : 0;

	if (!resolved)
		return BINO_ERROR_NO_MEMORY;
	resolved->exports = exports;
	resolved->paths = calloc(n ? n : 1, sizeof(*resolved->paths));
	if (!resolved->paths)
		goto out_nomem;
	for (i = 0; i < n; i++) {
		const char *path = bino_export_path(bino_exports_get(exports, i));

		resolved->paths[i] = realpath(path, NULL);
		if (!resolved->paths[i]) {
			if (errno == ENOMEM)
				goto out_nomem;
			resolved->paths[i] = strdup(path);
			if (!resolved->paths[i])
				goto out_nomem;
		}
		resolved->count++;
	}
	*ret = resolved;
	return BINO_OK;

out_nomem:
	bino__nfsview_exports_destroy(resolved);
	return BINO_ERROR_NO_MEMORY;
}

void bino__nfsview_exports_destroy(struct nfsview_exports *resolved)
{
	size_t i;

	if (!resolved)
		return;
	for (i = 0; i < resolved->count; i++)
		free(resolved->paths[i]);
	free(resolved->paths);
	free(resolved);
}

size_t bino__nfsview_exports_count(const struct nfsview_exports *resolved)
{
	return resolved->count;
}

const char *bino__nfsview_exports_path(const struct nfsview_exports *resolved,
				       size_t index)
{
	return resolved->paths[index];
}

const struct bino_export *
bino__nfsview_exports_get(const struct nfsview_exports *resolved, size_t index)
{
	return bino_exports_get(resolved->exports, index);
}

/* The first export of the resolved @path having every bit of @flags. */
static const struct bino_export *
exports_find(const struct nfsview_exports *resolved, const char *path,
	     int flags)
{
	size_t i;

	if (!resolved)
		return NULL;
	for (i = 0; i < resolved->count; i++) {
		const struct bino_export *export =
			bino_exports_get(resolved->exports, i);

		if (strcmp(resolved->paths[i], path) == 0 &&
		    (bino_export_flags(export) & flags) == flags)
			return export;
	}
	return NULL;
}

/* ---- server mounts -------------------------------------------------- */

/*
 * Whether @mount shows the very directory it covers: its parent mount is of
 * the same device and has @mount's root at @mount's mount point (a btrfs
 * subvolume mounted on its own path, "mount --bind /x /x").
 */
static bool same_content(const struct bino_mounts *server,
			 const struct bino_mount *mount)
{
	const struct bino_mount *parent =
		bino_mounts_find_id(server, bino_mount_parent_id(mount));
	const char *target = bino_mount_target(mount);
	const char *parent_root, *rel;
	size_t root_len;

	if (!parent || parent == mount ||
	    bino_mount_dev(parent) != bino_mount_dev(mount))
		return false;
	rel = bino__path_rest(target, bino_mount_target(parent));
	if (!rel)
		return false;
	/* covered = parent's root joined with rel; compare without building it */
	parent_root = bino_mount_root(parent);
	root_len = strcmp(parent_root, "/") == 0 ? 0 : strlen(parent_root);
	if (strncmp(bino_mount_root(mount), parent_root, root_len) != 0)
		return false;
	if (rel[0] == '\0')
		return strcmp(bino_mount_root(mount) + root_len,
			      root_len ? "" : "/") == 0;
	return strcmp(bino_mount_root(mount) + root_len, rel) == 0;
}

enum bino_submount_view bino__nfsview_cross(const struct nfsview *view,
					    const struct bino_mount *mount,
					    const char *path, int parent_flags,
					    int *child_flags)
{
	const struct bino_export *own = exports_find(view->exports, path, 0);
	const struct bino_export *nohide =
		exports_find(view->exports, path, BINO_EXPORT_NOHIDE);

	if (parent_flags & BINO_EXPORT_CROSSMNT) {
		*child_flags = own ? bino_export_flags(own) : parent_flags;
		return BINO_SUBMOUNT_CROSSMNT;
	}
	if (nohide) {
		*child_flags = bino_export_flags(nohide);
		return BINO_SUBMOUNT_NOHIDE;
	}
	if (own && (view->audit_flags & BINO_AUDIT_NFSV4)) {
		*child_flags = bino_export_flags(own);
		return BINO_SUBMOUNT_NFSV4;
	}
	*child_flags = parent_flags;
	return same_content(view->mounts, mount) ? BINO_SUBMOUNT_SAME_CONTENT :
						   BINO_SUBMOUNT_HIDDEN;
}

/* ---- paths below an export --------------------------------------------- */

size_t bino__nfsview_exports_covering(const struct nfsview_exports *resolved,
				      const char *path)
{
	size_t i, best = SIZE_MAX, best_len = 0;

	for (i = 0; resolved && i < resolved->count; i++) {
		size_t len = strlen(resolved->paths[i]);

		if (bino__path_below(path, resolved->paths[i]) &&
		    (best == SIZE_MAX || len > best_len)) {
			best = i;
			best_len = len;
		}
	}
	return best;
}

/*
 * mountd serves a directory below an export from the longest exported
 * path above it (nfs-utils auth_authenticate()); what the client finds
 * there follows the crossing rule at each server mount on the way down.
 */
bool bino__nfsview_covered_flags(const struct nfsview *view,
				 const char *export_path, const char *path,
				 int *flags)
{
	const struct bino_mount *const *below;
	size_t i, n = bino__mounts_below(view->mounts, export_path, &below);

	/* Sorted by mount point: the ancestors of @path come parents first. */
	for (i = 0; i < n; i++) {
		const struct bino_mount *mount = below[i];
		const char *target = bino_mount_target(mount);

		if (!bino__path_at_or_below(path, target))
			continue;
		if (bino__nfsview_cross(view, mount, target, *flags, flags) ==
		    BINO_SUBMOUNT_HIDDEN)
			return false;
	}
	return true;
}

const struct bino_export *bino__nfsview_covering_next(const struct nfsview *view,
						      const char *path,
						      size_t *index, int *flags)
{
	size_t n = bino__nfsview_exports_count(view->exports);
	size_t covering = bino__nfsview_exports_covering(view->exports, path);
	const char *export_path;

	if (covering == SIZE_MAX)
		return NULL;
	export_path = bino__nfsview_exports_path(view->exports, covering);
	while (*index < n) {
		size_t i = (*index)++;
		const struct bino_export *export =
			bino__nfsview_exports_get(view->exports, i);

		*flags = bino_export_flags(export);
		if (strcmp(bino__nfsview_exports_path(view->exports, i),
			   export_path) == 0 &&
		    bino__nfsview_covered_flags(view, export_path, path, flags))
			return export;
	}
	return NULL;
}
