/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Identity: a statx result becomes the true identity (dev, subvolid, ino) of
 * an inode.  (st_dev, st_ino) is not unique where btrfs subvolumes are
 * separate inode namespaces under one device, nor on an NFS client of a
 * btrfs export, whose one st_dev hides them; the subvolume id completes the
 * key.  The walker asks; nothing here calls back into it.  Components:
 *
 *  - bino__identify(): the entry point.  Finds the inode's mount, whose
 *    fstype says how far stat can be trusted (enum bino_fs_kind) and, on
 *    btrfs, which device all subvolumes share; then asks that kind's source.
 *  - identify_find_mount(): the mount of a mount ID, reading the table again
 *    for mounts made since it was read.
 *  - identify_btrfs_subvolid(): statx STATX_SUBVOL where the kernel fills
 *    it, else the parent's subvolume where it cannot have changed, else the
 *    ioctl, else the inode's file handle.
 *  - identify_nfs_subvolid() and identify_nfs_export_root(): on an NFS
 *    client, the subvolume from the server's file handle (knfsd's handle of
 *    a btrfs inode ends in btrfs' fileid, which holds it).
 *  - identify_uncertain(): what is left when no source could tell.
 *
 * What keeps this cheap is inheritance: an inode in its directory's device
 * that is no subvolume root (inode 256) is in its directory's subvolume, so
 * the costly sources are asked once per subvolume, not once per inode.
 */
#include "identity.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "btrfsconst.h"
#include "getdents.h"
#include "nfshandle.h"
#include "subvol.h"

/* How often the mount table is read again during one walk, at most. */
#define MOUNT_TABLE_READS_MAX 64

enum bino_error bino__identifier_init(struct bino_identifier *idr, int flags)
{
	memset(idr, 0, sizeof(*idr));
	idr->no_statx_subvol = flags & BINO_WALK_NO_STATX_SUBVOL;
	idr->no_subvol_ioctl = flags & BINO_WALK_NO_SUBVOL_IOCTL;
	return bino_mounts_create(NULL, &idr->mounts);
}

void bino__identifier_release(struct bino_identifier *idr)
{
	size_t i;

	bino_mounts_destroy(idr->mounts);
	for (i = 0; i < idr->n_old_mounts; i++)
		bino_mounts_destroy(idr->old_mounts[i]);
	free(idr->old_mounts);
	idr->mounts = NULL;
	idr->old_mounts = NULL;
	idr->n_old_mounts = 0;
	idr->old_mounts_cap = 0;
}

/* Mark an identity as unknowable beyond what stat says, and why. */
static void identify_uncertain(struct bino_identity *id, enum bino_error error,
			       int error_errno)
{
	id->error = error;
	id->error_errno = error_errno;
	id->flags |= BINO_ENTRY_IDENTITY_UNCERTAIN;
	id->key.dev = id->raw_dev;
	id->key.subvolid = 0;
	id->source = BINO_SOURCE_UNKNOWN;
}

/* Whether @stx is a directory that can be a subvolume root (inode 256). */
static bool is_subvol_root_dir(const struct bino_kstatx *stx)
{
	return S_ISDIR(stx->mode) && stx->ino == BTRFS_FIRST_FREE_OBJECTID;
}

/* A file handle of the inode at @at, from its fd if it was opened. */
static enum bino_error identify_nfs_fh(const struct bino_inode_at *at,
				       struct bino_nfs_fh *ret, int *errnum)
{
	if (at->fd >= 0)
		return bino__nfs_fh_of(at->fd, "", AT_EMPTY_PATH, ret, errnum);
	return bino__nfs_fh_of(at->dirfd, at->name,
			       at->follow ? AT_SYMLINK_FOLLOW : 0, ret, errnum);
}

/* The subvolume in the btrfs file handle of the inode at @at. */
static enum bino_error identify_btrfs_fh(const struct bino_inode_at *at,
					 uint64_t *ret, int *errnum)
{
	if (at->fd >= 0)
		return bino__subvolid_file_handle(at->fd, "", AT_EMPTY_PATH, ret,
						  errnum);
	return bino__subvolid_file_handle(at->dirfd, at->name,
					  at->follow ? AT_SYMLINK_FOLLOW : 0,
					  ret, errnum);
}

/*
 * The btrfs subvolume id of an inode, cheapest source first.  Without
 * STATX_SUBVOL, an inode in the same directory-device as its parent
 * directory is in the parent's subvolume (btrfs gives every subvolume its own
 * anonymous st_dev), so the ioctl or file handle is needed only where the
 * device changes or a subvolume root (inode 256) starts: once per subvolume.
 */
static void identify_btrfs_subvolid(const struct bino_identifier *idr,
				    const struct bino_inode_at *at,
				    const struct bino_kstatx *stx,
				    struct bino_identity *id)
{
	const struct bino_identity *parent = at->parent;
	uint64_t subvolid;
	int errnum;

	if (!idr->no_statx_subvol && (stx->mask & BINO_STATX_SUBVOL)) {
		id->key.subvolid = stx->subvol;
		id->source = BINO_SOURCE_STATX;
		return;
	}
	if (parent && parent->kind == BINO_FS_BTRFS &&
	    parent->raw_dev == id->raw_dev && !is_subvol_root_dir(stx)) {
		id->key.subvolid = parent->key.subvolid;
		id->source = parent->source;
		return;
	}
	if (at->fd >= 0 && !idr->no_subvol_ioctl &&
	    bino__subvolid_ioctl(at->fd, &subvolid) == 0) {
		id->key.subvolid = subvolid;
		id->source = BINO_SOURCE_IOCTL;
		return;
	}
	if (identify_btrfs_fh(at, &subvolid, &errnum) == BINO_OK) {
		id->key.subvolid = subvolid;
		id->source = BINO_SOURCE_FILE_HANDLE;
		return;
	}
	/*
	 * Nothing could tell.  The anonymous st_dev still separates
	 * subvolumes on this host, so it stands in for (dev, subvolid).
	 */
	identify_uncertain(id, BINO_ERROR_SUBVOLID_FAILED, errnum);
}

/*
 * The subvolume of an export's root directory, whose handle names the export
 * rather than an inode: that of the first child that is not itself a
 * subvolume root (inode 256), which lives in the same subvolume.
 */
static enum bino_error identify_nfs_export_root(int fd, uint64_t *ret)
{
	char buffer[8192] __attribute__((aligned(8)));
	int dirfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct bino_dirents dirents;
	const struct linux_dirent64 *dent;
	int errnum;

	if (dirfd < 0)
		return BINO_ERROR_OPEN_FAILED;
	bino__dirents_init(&dirents, dirfd, buffer, sizeof(buffer));
	while (bino__dirents_next(&dirents, &dent) == BINO_DIRENTS_RECORD) {
		struct bino_nfs_fh fh;

		if (bino__nfs_fh_of(dirfd, dent->d_name, 0, &fh, &errnum) == BINO_OK &&
		    fh.kind == BINO_NFS_FH_BTRFS &&
		    fh.objectid != BTRFS_FIRST_FREE_OBJECTID) {
			*ret = fh.root_objectid;
			close(dirfd);
			return BINO_OK;
		}
	}
	close(dirfd);
	return BINO_ERROR_NOT_FOUND;
}

/*
 * An inode on an NFS client of a btrfs export: the client's st_dev is one
 * for the whole export, so the subvolume comes from the server's file handle,
 * needed only where a subvolume can start (a directory of inode 256, a new
 * device, a starting path); everything else is in its directory's.
 */
static void identify_nfs_subvolid(const struct bino_inode_at *at,
				  const struct bino_kstatx *stx,
				  struct bino_identity *id)
{
	const struct bino_identity *parent = at->parent;
	struct bino_nfs_fh fh;
	int errnum;
	bool is_dir = S_ISDIR(stx->mode);

	id->key.dev = id->raw_dev;
	if (parent && parent->kind == BINO_FS_NFS &&
	    parent->raw_dev == id->raw_dev && !is_subvol_root_dir(stx)) {
		id->key.subvolid = parent->key.subvolid;
		id->source = parent->source;
		id->flags |= parent->flags & BINO_ENTRY_IDENTITY_UNCERTAIN;
		id->error = parent->error;
		id->error_errno = parent->error_errno;
		if (id->flags & BINO_ENTRY_IDENTITY_UNCERTAIN)
			id->key.dev = parent->key.dev;
		else if (is_dir && stx->ino == BTRFS_EMPTY_SUBVOL_DIR_OBJECTID &&
			 parent->source == BINO_SOURCE_NFS_HANDLE)
			id->flags |= BINO_ENTRY_SUBVOL_PLACEHOLDER;
		return;
	}
	if (identify_nfs_fh(at, &fh, &errnum) != BINO_OK) {
		identify_uncertain(id, BINO_ERROR_FILE_HANDLE_FAILED, errnum);
		return;
	}
	if (fh.kind == BINO_NFS_FH_EXPORT_ROOT && at->fd >= 0 &&
	    identify_nfs_export_root(at->fd, &id->key.subvolid) == BINO_OK) {
		id->source = BINO_SOURCE_NFS_HANDLE;
		if (is_subvol_root_dir(stx))
			id->flags |= BINO_ENTRY_SUBVOL_ROOT;
		return;
	}
	if (fh.kind != BINO_NFS_FH_BTRFS) {
		/* Not btrfs on the server (or an empty export root): no subvolumes. */
		id->source = BINO_SOURCE_NONE;
		return;
	}
	id->key.subvolid = fh.root_objectid;
	id->source = BINO_SOURCE_NFS_HANDLE;
	if (fh.objectid == BTRFS_FIRST_FREE_OBJECTID && is_dir)
		id->flags |= BINO_ENTRY_SUBVOL_ROOT;
}

/* The mount of @mnt_id, reading the table again if it is newer than ours. */
static const struct bino_mount *
identify_find_mount(struct bino_identifier *idr, uint64_t mnt_id)
{
	const struct bino_mount *mount = bino_mounts_find_id(idr->mounts, mnt_id);
	struct bino_mounts *fresh;

	if (mount || mnt_id == idr->last_unknown_mnt_id ||
	    idr->n_old_mounts >= MOUNT_TABLE_READS_MAX)
		return mount;
	if (ARRAY_RESERVE(idr->old_mounts, idr->old_mounts_cap,
			  idr->n_old_mounts + 1) != 0)
		return NULL;
	if (bino_mounts_create(NULL, &fresh) != BINO_OK)
		return NULL;
	idr->old_mounts[idr->n_old_mounts++] = idr->mounts;
	idr->mounts = fresh;
	mount = bino_mounts_find_id(fresh, mnt_id);
	if (!mount)
		idr->last_unknown_mnt_id = mnt_id;
	return mount;
}

void bino__identify(struct bino_identifier *idr,
		    const struct bino_inode_at *at,
		    const struct bino_kstatx *stx, struct bino_identity *id)
{
	const struct bino_identity *parent = at->parent;

	assert(idr->mounts);
	memset(id, 0, sizeof(*id));
	id->raw_dev = bino__statx_dev(stx);
	id->key.ino = stx->ino;
	id->mnt_id = stx->mnt_id;
	if (parent && parent->mnt_id == stx->mnt_id)
		id->mount = parent->mount;
	else if (stx->mask & BINO_STATX_MNT_ID)
		id->mount = identify_find_mount(idr, stx->mnt_id);
	id->kind = id->mount ? bino__mount_fs_kind(id->mount) : BINO_FS_OTHER;
	if ((stx->attributes_mask & BINO_STATX_ATTR_MOUNT_ROOT) &&
	    (stx->attributes & BINO_STATX_ATTR_MOUNT_ROOT))
		id->flags |= BINO_ENTRY_MOUNT_ROOT;
	else if (parent && parent->mnt_id != stx->mnt_id)
		id->flags |= BINO_ENTRY_MOUNT_ROOT;

	if (id->kind == BINO_FS_NFS) {
		identify_nfs_subvolid(at, stx, id);
		return;
	}
	if (id->kind != BINO_FS_BTRFS) {
		id->key.dev = id->raw_dev;
		id->source = BINO_SOURCE_NONE;
		return;
	}
	/* All subvolumes of one btrfs share the device mountinfo lists. */
	assert(id->mount);
	id->key.dev = bino_mount_dev(id->mount);
	if (S_ISDIR(stx->mode) &&
	    stx->ino == BTRFS_EMPTY_SUBVOL_DIR_OBJECTID && parent) {
		/*
		 * The empty directory a snapshot holds where its source had a
		 * nested subvolume: no subvolume of its own, and neither
		 * statx nor the ioctl can name one.  It lives in its parent.
		 */
		id->key.subvolid = parent->key.subvolid;
		id->source = parent->source;
		id->flags |= BINO_ENTRY_SUBVOL_PLACEHOLDER;
		return;
	}
	identify_btrfs_subvolid(idr, at, stx, id);
	if (is_subvol_root_dir(stx))
		id->flags |= BINO_ENTRY_SUBVOL_ROOT;
}
