/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Identities of inodes, as the walker asks for them: the identity one inode
 * gets, where the inode was found, and the state identifying keeps from one
 * inode to the next.
 */
#ifndef BINO_IDENTITY_H
#define BINO_IDENTITY_H

#include "internal.h"

#include "mounts.h"
#include "statx.h"

/* How an inode was identified; walk entries and directory frames hold one. */
struct bino_identity {
	struct bino_key key;
	enum bino_source source;
	int flags; /* the BINO_ENTRY_* that identifying decides */
	enum bino_error error; /* for BINO_ENTRY_IDENTITY_UNCERTAIN */
	int error_errno;
	uint64_t raw_dev; /* st_dev as stat shows it: per subvolume on btrfs */
	uint64_t mnt_id;
	const struct bino_mount *mount; /* NULL when not in the mount table */
	enum bino_fs_kind kind;
};

/*
 * What identifying keeps between inodes: the subvolume sources it may ask,
 * and the mount tables read so far.  A mount made during the walk (an
 * automount, an NFS submount) is not in the table read first, so the table
 * is read again when a mount ID is missing; the older tables are kept
 * because identities point into them.  The walker owns one and passes it
 * first.
 */
struct bino_identifier {
	bool no_statx_subvol; /* BINO_WALK_NO_STATX_SUBVOL */
	bool no_subvol_ioctl; /* BINO_WALK_NO_SUBVOL_IOCTL */
	struct bino_mounts *mounts; /* the newest table read; never NULL */
	struct bino_mounts **old_mounts; /* replaced tables, oldest first */
	size_t n_old_mounts;
	size_t old_mounts_cap;
	uint64_t last_unknown_mnt_id; /* not in the newest table either */
};

/*
 * Where an inode was found: its directory's identity, which it inherits
 * where nothing can have changed, and how to reach the inode again for an
 * ioctl or a file handle.
 */
struct bino_inode_at {
	const struct bino_identity *parent; /* NULL for a starting path */
	int dirfd; /* with @name: the inode; AT_FDCWD for a starting path */
	const char *name;
	bool follow; /* @name is followed if it is a symbolic link */
	int fd; /* the inode itself, opened, or -1 */
};

/*
 * Set up @idr for a walk with @flags (enum bino_walk_flags) and read the
 * mount table.  Returns BINO_OK or the error of bino_mounts_create(); in
 * either case release @idr with bino__identifier_release().
 */
BINO_WARN_UNUSED
enum bino_error bino__identifier_init(struct bino_identifier *idr, int flags);

/* Free the mount tables of @idr (also one zeroed or half set up). */
void bino__identifier_release(struct bino_identifier *idr);

/*
 * The identity of the inode at @at whose statx result is @stx.  Never
 * fails: what no source can tell is marked BINO_ENTRY_IDENTITY_UNCERTAIN,
 * with the step that failed and its errno in @id.
 */
void bino__identify(struct bino_identifier *idr,
		    const struct bino_inode_at *at,
		    const struct bino_kstatx *stx, struct bino_identity *id);

#endif
