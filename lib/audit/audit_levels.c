/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The walk's stack of levels, for both passes of the audit: what each
 * directory on the current path is to the clients (client filesystem,
 * export flags, client key, path length, whether its children can be
 * stat'ed), and the server mounts on the way.  Both passes must see the
 * same levels, or the second would look for its examples in other client
 * filesystems than the first counted them in; so the level of an entry is
 * set here, once, and the passes only read it.
 *
 * At a server mount point the client sees (bino__nfsview_cross()) a new
 * client filesystem, the same one, or the covered directory, identified
 * from its parent's readdir.  The server's mount table is the one given (a
 * file, offline): a mount of this machine it does not list is not crossed
 * either (audit_level_unlisted()).
 */
#include "audit_state.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "getdents.h"
#include "mounts.h"

static enum bino_error audit_add_submount(struct bino_audit_target *target,
					  const struct bino_mount *mount,
					  enum bino_submount_view view,
					  size_t client_fs)
{
	struct bino_audit_submount *submount;

	if (ARRAY_RESERVE(target->submounts, target->cap_submounts,
			  target->n_submounts + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	submount = &target->submounts[target->n_submounts++];
	submount->mount = mount;
	submount->view = view;
	submount->client_fs = client_fs;
	return BINO_OK;
}

/* The first pass records each mount met (the second meets the same ones). */
static enum bino_error audit_note_submount(struct audit_walk *aw,
					   const struct bino_mount *mount,
					   enum bino_submount_view view,
					   size_t client_fs)
{
	if (aw->pass != 1)
		return BINO_OK;
	return audit_add_submount(aw->target, mount, view, client_fs);
}

/*
 * The inode number @name has in directory @dir: readdir does not cross
 * mounts, so this is the directory a mount covers.  0 if not found.
 */
static uint64_t covered_ino(const char *dir, const char *name)
{
	char buffer[16384] __attribute__((aligned(8)));
	const struct linux_dirent64 *dent;
	struct bino_dirents dirents;
	uint64_t ino = 0;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return 0;
	bino__dirents_init(&dirents, fd, buffer, sizeof(buffer));
	while (bino__dirents_next(&dirents, &dent) > 0) {
		if (strcmp(dent->d_name, name) == 0) {
			ino = dent->d_ino;
			break;
		}
	}
	close(fd);
	return ino;
}

/*
 * What the client sees at a mount point it does not cross: the directory
 * the mount covers, in its parent's subvolume, identified from its parent's
 * readdir; *@level then holds it (its ino 0 if even that is unknown).
 */
static enum bino_error audit_level_covered(struct bino_entry *entry,
					   struct audit_level *level)
{
	const struct audit_level *parent = level - 1;
	char *dir;

	assert(bino_entry_depth(entry) > 0);
	dir = strndup(bino_entry_path(entry), parent->path_len);
	if (!dir)
		return BINO_ERROR_NO_MEMORY;
	level->key = parent->key;
	level->ino = covered_ino(dir, bino_entry_name(entry));
	level->key.ino = level->ino;
	free(dir);
	return BINO_OK;
}

/*
 * A directory at depth > 0 that is a server mount point: decide its client
 * filesystem in *@level.  *@how stays AUDIT_ENTER_WALK when its content is
 * to be walked; AUDIT_ENTER_COVERED when the client sees the covered
 * directory instead (then *@level holds that directory).
 */
static enum bino_error audit_level_mountpoint(struct audit_walk *aw,
					      struct bino_entry *entry,
					      const struct bino_mount *mount,
					      struct audit_level *level,
					      enum audit_enter *how)
{
	const struct audit_level *parent = level - 1;
	enum bino_submount_view view;
	enum bino_error err;
	int child_flags;

	view = bino__nfsview_cross(&aw->view, mount, bino_entry_path(entry),
				   parent->flags, &child_flags);
	switch (view) {
	case BINO_SUBMOUNT_CROSSMNT:
	case BINO_SUBMOUNT_NOHIDE:
	case BINO_SUBMOUNT_NFSV4:
		level->client_fs = aw->target->n_client_fs++;
		level->flags = child_flags;
		return audit_note_submount(aw, mount, view, level->client_fs);
	case BINO_SUBMOUNT_SAME_CONTENT:
		return audit_note_submount(aw, mount, view, level->client_fs);
	case BINO_SUBMOUNT_HIDDEN:
	case BINO_SUBMOUNT_UNLISTED:
		break;
	}
	*how = AUDIT_ENTER_COVERED;
	err = audit_note_submount(aw, mount, view, level->client_fs);
	return err ? err : audit_level_covered(entry, level);
}

/*
 * A directory at depth > 0 that is a mount of this machine but not of the
 * server mount table read from a file (offline): on that server it is no
 * mount point, and the directory there is the one this mount covers, whose
 * content cannot be read here.  Not crossed: the covered directory is
 * counted in its parent's client filesystem and the mount is reported as
 * BINO_SUBMOUNT_UNLISTED (from the process's own table, which outlives the
 * walk).
 */
static enum bino_error audit_level_unlisted(struct audit_walk *aw,
					    struct bino_entry *entry,
					    struct audit_level *level)
{
	const struct bino_mount *here = bino_entry_mount(entry);
	const struct bino_mount *mount =
		here ? bino_mounts_find_id(aw->audit->own_mounts,
					   bino_mount_id(here)) :
		       NULL;
	enum bino_error err = BINO_OK;

	/* A mount made since the audit began is not in the table to keep. */
	if (mount)
		err = audit_note_submount(aw, mount, BINO_SUBMOUNT_UNLISTED,
					  level->client_fs);
	return err ? err : audit_level_covered(entry, level);
}

/*
 * A directory at depth > 0 on the server (not the client view): cross the
 * mount it may be, in *@level and *@how.  Crossed or not, a mount hides
 * the names it covers from the first pass's count (and so does one made
 * since the table was read, or not in it).
 */
static enum bino_error audit_level_cross(struct audit_walk *aw,
					 struct bino_entry *entry,
					 struct audit_level *level,
					 enum audit_enter *how)
{
	const struct bino_mount *mount =
		bino__mounts_at(aw->audit->server, bino_entry_path(entry));
	bool mount_root = bino_entry_flags(entry) & BINO_ENTRY_MOUNT_ROOT;
	enum bino_error err = BINO_OK;

	if (mount) {
		err = audit_level_mountpoint(aw, entry, mount, level, how);
	} else if (mount_root && bino__mounts_from_file(aw->audit->server)) {
		*how = AUDIT_ENTER_COVERED;
		err = audit_level_unlisted(aw, entry, level);
	}
	if (aw->pass == 1 && (mount || mount_root)) {
		bino__audit_names_hidden(aw, bino_entry_depth(entry));
		if (aw->restart)
			return BINO_ERROR_STOP_ITERATION;
	}
	if (*how == AUDIT_ENTER_COVERED) {
		bino_walk_prune(aw->walk);
		if (!level->ino)
			*how = AUDIT_ENTER_SKIP;
	}
	return err;
}

/*
 * Whether the children of directory @entry can surely be stat'ed, so that
 * none is stat'ed as a probe (PROBE_OK from the start).  On btrfs, whose
 * permission check is the kernel's generic one, a process with
 * CAP_DAC_READ_SEARCH or CAP_DAC_OVERRIDE in the initial user namespace
 * searches every directory, and a directory's owner searches it when the
 * owner's x bit is set (a POSIX ACL never changes the owner's bits).
 * Anyone else may be refused by an ACL whatever the mode says, and on
 * another filesystem (NFS, FUSE) the server decides: there the first child
 * is the probe.  (A security module that refuses a search still shows: a
 * colliding entry's stat fails, and the rest of the directory is counted
 * unreadable.)
 */
static bool audit_dir_searchable(const struct audit_walk *aw,
				 struct bino_entry *entry,
				 const struct audit_level *level)
{
	struct bino_stat st;

	if (aw->target->client_view || !level->key.subvolid)
		return false;
	if (aw->search_by_right)
		return true;
	/* A directory's stat is the walk's own: no system call. */
	return bino_entry_stat(entry, &st) == BINO_OK && st.uid == aw->euid &&
	       (st.mode & S_IXUSR);
}

/*
 * The client view (a path on an NFS client mount): the client filesystem of
 * client st_dev @dev, one per device met, in *@ret.  The server's mounts do
 * not matter here: the client shows what it crossed by a device of its own.
 */
static enum bino_error audit_client_fs(struct bino_audit_target *target,
				       uint64_t dev, size_t *ret)
{
	size_t i;

	for (i = 0; i < target->n_client_fs; i++) {
		if (target->client_devs[i] == dev) {
			*ret = i;
			return BINO_OK;
		}
	}
	if (ARRAY_RESERVE(target->client_devs, target->cap_client_devs,
			  target->n_client_fs + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	target->client_devs[target->n_client_fs] = dev;
	*ret = target->n_client_fs++;
	return BINO_OK;
}

/*
 * The client view of the walk's root: without file handles (NFSv4.0) the
 * client cannot tell subvolumes apart, nor can the audit; the path's error
 * is set and the walk stops.
 */
static enum bino_error audit_client_can_tell(struct bino_audit_target *target,
					     const struct bino_entry *entry)
{
	if (!(bino_entry_flags(entry) & BINO_ENTRY_IDENTITY_UNCERTAIN))
		return BINO_OK;
	target->error = bino_entry_error(entry) ? bino_entry_error(entry) :
						  BINO_ERROR_FILE_HANDLE_FAILED;
	target->error_errno = bino_entry_errno(entry);
	return BINO_ERROR_STOP_ITERATION;
}

/* The client filesystem and export flags of the entry at @depth. */
static enum bino_error audit_level_client_fs(struct audit_walk *aw,
					     struct bino_entry *entry,
					     int depth)
{
	struct bino_audit_target *target = aw->target;
	struct audit_level *level = &aw->levels[depth];
	enum bino_error err = BINO_OK;

	if (target->client_view) {
		if (depth == 0)
			err = audit_client_can_tell(target, entry);
		if (!err)
			err = audit_client_fs(target, bino_entry_st_dev(entry),
					      &level->client_fs);
		level->flags = depth ? level[-1].flags : target->flags;
	} else if (depth == 0) {
		level->client_fs = 0;
		level->flags = target->flags;
		target->n_client_fs = 1;
	} else {
		level->client_fs = level[-1].client_fs;
		level->flags = level[-1].flags;
	}
	return err;
}

enum bino_error bino__audit_level_enter(struct audit_walk *aw,
					struct bino_entry *entry, bool is_dir,
					enum audit_enter *how)
{
	int depth = bino_entry_depth(entry);
	struct audit_level *level;
	enum bino_error err;

	*how = AUDIT_ENTER_SKIP;
	/*
	 * knfsd cannot serve a snapshot's empty placeholder: a client lists it
	 * or not (ESTALE) as its cache has it, so the client view leaves it out.
	 */
	if (aw->target->client_view &&
	    (bino_entry_flags(entry) & BINO_ENTRY_SUBVOL_PLACEHOLDER)) {
		bino_walk_prune(aw->walk);
		return BINO_OK;
	}
	if (ARRAY_RESERVE(aw->levels, aw->cap_levels, (size_t)depth + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	err = audit_level_client_fs(aw, entry, depth);
	if (err)
		return err;
	level = &aw->levels[depth];
	level->key = bino_entry_key(entry);
	level->ino = level->key.ino;
	level->path_len = bino_entry_path_length(entry);
	level->probe = PROBE_NONE;
	if (is_dir && audit_dir_searchable(aw, entry, level))
		level->probe = PROBE_OK;
	*how = AUDIT_ENTER_WALK;
	if (depth > 0 && is_dir && !aw->target->client_view)
		return audit_level_cross(aw, entry, level, how);
	return BINO_OK;
}
