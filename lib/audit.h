/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to the audit: the client's view of an export (nfsview.c) as the
 * audit (audit.c) asks it, and the table of client keys, kept behind this
 * small interface so that a compacter structure can replace the hash.
 */
#ifndef BINO_AUDIT_H
#define BINO_AUDIT_H

#include "internal.h"

/* ---- exported paths, resolved ------------------------------------------ */

/* The export table with every path resolved by realpath(3). */
struct nfsview_exports;

/* @exports may be NULL (an empty table).  BINO_OK or BINO_ERROR_NO_MEMORY. */
enum bino_error bino__nfsview_exports_create(const struct bino_exports *exports,
					     struct nfsview_exports **ret);
void bino__nfsview_exports_destroy(struct nfsview_exports *resolved);
size_t bino__nfsview_exports_count(const struct nfsview_exports *resolved);
/* The resolved path of the @index'th export (as written if unresolvable). */
const char *bino__nfsview_exports_path(const struct nfsview_exports *resolved,
				       size_t index);
const struct bino_export *
bino__nfsview_exports_get(const struct nfsview_exports *resolved, size_t index);
/* The first export of the resolved @path having every bit of @flags. */
const struct bino_export *
bino__nfsview_exports_find(const struct nfsview_exports *resolved,
			   const char *path, int flags);

/* ---- server mounts below an export ------------------------------------- */

struct nfsview_mounts;

/*
 * Index the mounts of @server whose mount point is strictly below
 * @export_path (resolved).  BINO_OK or BINO_ERROR_NO_MEMORY.
 */
enum bino_error bino__nfsview_mounts_create(const struct bino_mounts *server,
					    const char *export_path,
					    struct nfsview_mounts **ret);
void bino__nfsview_mounts_destroy(struct nfsview_mounts *index);
/* The mount visible at mount point @path (the last mounted), or NULL. */
const struct bino_mount *
bino__nfsview_mounts_at(const struct nfsview_mounts *index, const char *path);

/*
 * Whether @mount shows the very directory it covers: its parent mount is of
 * the same device and has @mount's root at @mount's mount point (a btrfs
 * subvolume mounted on its own path, "mount --bind /x /x").
 */
bool bino__nfsview_same_content(const struct bino_mounts *server,
				const struct bino_mount *mount);

/*
 * What a client sees at server mount @mount (mount point @path), reached in
 * a client filesystem exported with @parent_flags; @audit_flags are
 * enum bino_audit_flags.  For the crossing views, *@child_flags are the
 * export flags of the new client filesystem; else the parent's.
 */
enum bino_submount_view
bino__nfsview_cross(const struct nfsview_exports *resolved,
		    const struct bino_mounts *server,
		    const struct bino_mount *mount, const char *path,
		    int parent_flags, int audit_flags, int *child_flags);

/* ---- client keys ------------------------------------------------------- */

/*
 * Everything remembered of one client key (client filesystem, inode): the
 * first entry's identity and path, whether another identity was met (and
 * the first such), and how many paths; then the same restricted to non-directories with more
 * than one link.  Fields are the caller's to update; paths it sets are
 * malloc'ed and freed with the table.
 */
struct ckey_group {
	struct bino_key first;
	char *first_path;
	struct bino_key other;
	uint64_t paths;
	bool mixed;
	struct bino_key first_link;
	char *first_link_path;
	struct bino_key other_link;
	uint64_t link_paths;
	bool link_mixed;
};

struct ckey_table;

enum bino_error bino__ckey_table_create(struct ckey_table **ret);
void bino__ckey_table_destroy(struct ckey_table *table);
/*
 * The group of client key (@client_fs, @ino), zero-filled when new.
 * NULL when out of memory.
 */
struct ckey_group *bino__ckey_table_get(struct ckey_table *table,
					uint64_t client_fs, uint64_t ino);

#endif
