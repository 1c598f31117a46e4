/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * btrfs-ino mount --client: making one server mount a permanent mount on
 * an NFS client, and removing it (client_hold.c says how and why so).
 */
#ifndef BTRFS_INO_CLIENT_HOLD_H
#define BTRFS_INO_CLIENT_HOLD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* The inode of every btrfs subvolume root, as the server serves it. */
#define CLIENT_SUBVOL_INO 256

/* What an entry below DIR is, looked at without triggering anything. */
enum client_entry_kind {
	CLIENT_ENTRY_OTHER, /* not a directory, or a plain one */
	CLIENT_ENTRY_SERVER_MOUNT, /* a server mount nothing crossed: an automount point */
	CLIENT_ENTRY_MOUNTED, /* the root of a mount on the client */
	CLIENT_ENTRY_UNMOUNTED_SUBVOL, /* a subvolume root the server has not mounted (yet) */
};

/* An entry as client_entry_look() saw it. */
struct client_entry {
	enum client_entry_kind kind;
	bool is_dir;
	uint32_t uid; /* its owner on the server (numeric, as served) */
	uint64_t mnt_id; /* CLIENT_ENTRY_MOUNTED: the mount's ID */
};

/*
 * Look at @name in the directory @dirfd without triggering a submount
 * (AT_NO_AUTOMOUNT) or following a symbolic link.  0, or -1 with errno set.
 */
int client_entry_look(int dirfd, const char *name, struct client_entry *entry);

/*
 * Make the server mount at @rel (below the directory @rootfd, reached
 * without a symbolic link and never outside it) a mount of its own that
 * does not expire, after checking that it is still what was planned: an
 * untriggered server mount of a subvolume root owned by @uid.  Its mount
 * ID into *@mnt_id.  0, or -1 with errno set: ESTALE when it is no longer
 * what was planned, the failed step's errno otherwise.
 */
int client_hold(int rootfd, const char *rel, uint32_t uid, uint64_t *mnt_id);

/*
 * Unmount the mount @mnt_id at @rel below @rootfd, which the keeper made:
 * only if the path still leads to that very mount.  0 (also when the
 * mount is gone already), or -1 with errno set (ESTALE: another mount is
 * there now).
 */
int client_release(int rootfd, const char *rel, uint64_t mnt_id);

/* Whether the mount table has a mount with the ID @mnt_id. */
bool client_mount_exists(uint64_t mnt_id);

#endif
