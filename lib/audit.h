/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Internal to the audit: the client's view of an export (nfsview.c) as the
 * audit (audit.c) asks it, and the table of client keys (ckeys.c).
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

/*
 * The index of the export whose resolved path is the nearest directory
 * strictly above @path (resolved), or SIZE_MAX when none is.
 */
size_t bino__nfsview_exports_covering(const struct nfsview_exports *resolved,
				      const char *path);

/*
 * What a client of the export of @export_path (flags *@flags) finds at
 * @path below it: *@flags become the export flags that apply there (those
 * of a mount crossed on the way), and *@visible is false when a server
 * mount on the way is hidden from the client (it sees the directory the
 * mount covers, not @path).  BINO_OK or BINO_ERROR_NO_MEMORY.
 */
enum bino_error bino__nfsview_covered_flags(const struct nfsview_exports *resolved,
					    const struct bino_mounts *server,
					    const char *export_path,
					    const char *path, int audit_flags,
					    int *flags, bool *visible);

/* ---- sets of inode numbers (ckeys.c) ----------------------------------- */

/* A CRoaring bitmap per 2^32 inode numbers; zero-filled is empty. */
struct inoset {
	struct inoset_part *parts;
	size_t n_parts, cap_parts;
};

bool bino__inoset_contains(const struct inoset *set, uint64_t ino);
/* 1 if @ino was added, 0 if it was there, -1 when out of memory. */
int bino__inoset_add(struct inoset *set, uint64_t ino);
/* Empty it, releasing its memory. */
void bino__inoset_clear(struct inoset *set);

/* ---- client keys (ckeys.c) --------------------------------------------- */

#define CKEY_NONE UINT32_MAX

/* Whether an identity's inodes with several names have been read. */
enum ckey_links {
	CKEY_LINKS_UNREAD,
	CKEY_LINKS_READ, /* bino__ckey_identity_links() answers */
	CKEY_LINKS_UNAVAILABLE, /* not btrfs, or not allowed: stat */
};

/*
 * One true identity's place: (client filesystem, dev, subvolume); @links
 * (enum ckey_links) and @stats (stat calls made for its entries) are the
 * caller's.
 */
struct ckey_identity {
	size_t client_fs;
	uint64_t dev;
	uint64_t subvolid;
	uint8_t links;
	bool ahead_asked; /* of the read-ahead helper (btrfslinks.c) */
	uint32_t stats;
};

/* Whether the first entry of a key is a non-directory with several links. */
enum ckey_first_links {
	CKEY_FIRST_LINKS_UNKNOWN, /* never stat'ed: the key was new then */
	CKEY_FIRST_LINKS_YES,
	CKEY_FIRST_LINKS_NO,
};

/*
 * What the audit remembers of a client key met more than once: identities
 * are indices of bino__ckey_identity().  @first is that of the key's first
 * entry, @other the first different one met (CKEY_NONE until then), @paths
 * the entries met until then; the same for the hardlink class (entries that
 * are non-directories with more than one link).  @pending lists, in walk
 * order, the hardlink-class entries met while @first_links is unknown.
 * Fields other than @first are the caller's.
 */
struct ckey_group {
	uint32_t first;
	uint32_t other;
	uint32_t first_link;
	uint32_t other_link;
	uint64_t paths;
	uint64_t link_paths;
	uint32_t pending;
	uint32_t pending_tail;
	uint8_t first_links; /* enum ckey_first_links */
	bool need_first; /* second pass: stat the key's first entry */
};

struct ckey_table;

enum bino_error bino__ckey_table_create(struct ckey_table **ret);
void bino__ckey_table_destroy(struct ckey_table *table);
/*
 * The index of the identity (@client_fs, @dev, @subvolid), added if new.
 * Adding one never moves the others: what bino__ckey_identity_get() and
 * bino__ckey_identity_links() return stays valid until the table's destroy.
 */
enum bino_error bino__ckey_identity(struct ckey_table *table, size_t client_fs,
				    uint64_t dev, uint64_t subvolid,
				    uint32_t *ret);
/* The identity of index @index (one bino__ckey_identity() returned). */
struct ckey_identity *bino__ckey_identity_get(const struct ckey_table *table,
					      uint32_t index);
/* A set owned by the identity, for its inodes with several names. */
struct inoset *bino__ckey_identity_links(struct ckey_table *table,
					 uint32_t index);
/* Whether the key (@client_fs, @ino) has been added. */
bool bino__ckey_table_seen(const struct ckey_table *table, size_t client_fs,
			   uint64_t ino);
/*
 * Add an entry of inode @ino in identity @identity.  *@ret is NULL for the
 * key's first entry, else its group, created (*@created) at the second.
 */
enum bino_error bino__ckey_table_add(struct ckey_table *table, uint32_t identity,
				     uint64_t ino, struct ckey_group **ret,
				     bool *created);
/* The group of a key met more than once, or NULL. */
struct ckey_group *bino__ckey_table_find(const struct ckey_table *table,
					 size_t client_fs, uint64_t ino);
/* The number of groups. */
size_t bino__ckey_table_group_count(const struct ckey_table *table);

#endif
