/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The client keys (client filesystem, inode) of one audited path and their
 * true identities (ckeys.c), as the audit counts them.
 */
#ifndef BINO_CKEYS_H
#define BINO_CKEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "inoset.h"
#include "internal.h"

#define CKEY_NONE UINT32_MAX

/* Whether an identity's inodes with several names have been read. */
enum ckey_links {
	CKEY_LINKS_UNREAD,
	CKEY_LINKS_READ, /* bino__ckey_identity_links() answers */
	CKEY_LINKS_UNAVAILABLE, /* not btrfs, or not allowed: stat */
	CKEY_LINKS_COUNTING, /* by the walk, in its window (audit_nlink_names.c) */
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
	bool ahead_asked; /* of the read-ahead helper (nlink_tree.c) */
	uint32_t stats;
};

/* Whether the first entry of a key is a non-directory with several links. */
enum ckey_first_links {
	CKEY_FIRST_LINKS_UNKNOWN, /* never stat'ed: the key was new then */
	CKEY_FIRST_LINKS_YES,
	CKEY_FIRST_LINKS_NO,
};

/*
 * One collision class's count of a key's entries (struct ckey_group):
 * identities are indices of bino__ckey_identity().
 */
struct ckey_class {
	uint32_t first; /* identity of the class's first entry */
	uint32_t other; /* the first different one met, CKEY_NONE until then */
	uint64_t paths; /* entries of the class met until then */
};

/*
 * What the audit remembers of a client key that the sets cannot tell: @plain
 * counts every entry, @link those of the hardlink class (non-directories
 * with more than one link).  @pending lists, in walk order, the
 * hardlink-class entries met while @first_links is unknown.  The table
 * sets the fields of @plain when it makes the group
 * (bino__ckey_table_group()); from then on all are the caller's.
 */
struct ckey_group {
	struct ckey_class plain;
	struct ckey_class link;
	uint32_t pending;
	uint32_t pending_tail;
	uint8_t first_links; /* enum ckey_first_links */
	bool need_first; /* second pass: stat the key's first entry */
};

struct ckey_table;

BINO_WARN_UNUSED
enum bino_error bino__ckey_table_create(struct ckey_table **ret);
void bino__ckey_table_destroy(struct ckey_table *table);
/*
 * The index of the identity (@client_fs, @dev, @subvolid), added if new.
 * Adding one never moves the others: what bino__ckey_identity_get() and
 * bino__ckey_identity_links() return stays valid until the table's destroy.
 */
BINO_WARN_UNUSED
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
 * Add an entry of inode @ino in identity @identity.  For the key's first
 * entry *@first is CKEY_NONE; else it is the identity the key was first met
 * in, and *@ret the key's group if it has one (bino__ckey_table_group()),
 * else NULL.
 */
BINO_WARN_UNUSED
enum bino_error bino__ckey_table_add(struct ckey_table *table, uint32_t identity,
				     uint64_t ino, uint32_t *first,
				     struct ckey_group **ret);
/*
 * The key of inode @ino, without a group, met in identity @other, not the
 * one it was first met in: *@first_time true the first time (@other is its
 * plain class's other from then on), false if it had collided already.
 */
BINO_WARN_UNUSED
enum bino_error bino__ckey_table_collide(struct ckey_table *table,
					 uint32_t other, uint64_t ino,
					 bool *first_time);
/* Whether the key (@client_fs, @ino) was met in a second identity. */
bool bino__ckey_table_collided(const struct ckey_table *table,
			       size_t client_fs, uint64_t ino);
/*
 * The group of a key met before (@first: the identity it was first met in),
 * made if it has none from what the sets tell: plain.first, plain.other
 * (the identity bino__ckey_table_collide() was first told) and plain.paths
 * (1 for a key not collided, else 2: its count then no longer matters).
 */
BINO_WARN_UNUSED
enum bino_error bino__ckey_table_group(struct ckey_table *table,
				       size_t client_fs, uint64_t ino,
				       uint32_t first, struct ckey_group **ret);
/* The group of a key met more than once, or NULL. */
struct ckey_group *bino__ckey_table_find(const struct ckey_table *table,
					 size_t client_fs, uint64_t ino);
/* The number of groups. */
size_t bino__ckey_table_group_count(const struct ckey_table *table);

#endif
