/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What the audit records of the devices and subvolumes an audited path
 * holds, for the report and for suggest.c.  Components:
 *
 *  - bino__audit_note_device(): each raw st_dev met, with its entry count,
 *    first path and kind (listed in the mount table, a btrfs subvolume's
 *    anonymous device, overlayfs, or an anomaly).
 *  - bino__audit_note_subvol(): each subvolume met, its path inside its
 *    filesystem and its details (subvol.c), read when met.
 *  - bino__audit_finish_subvols(): after the walk, what each snapshot is a
 *    snapshot of and the server mounts of each subvolume.
 */
#include "audit_state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "mounts.h"
#include "path.h"

enum bino_error bino__audit_note_device(struct audit_walk *aw,
					struct bino_entry *entry)
{
	struct bino_audit_target *target = aw->target;
	const struct bino_mounts *live = bino_walk_mounts(aw->walk);
	struct bino_audit_device *device;
	const struct bino_mount *mount;
	uint64_t dev = bino_entry_st_dev(entry);
	bool out_of_memory = false;

	HASH_FIND(hh, target->device_index, &dev, sizeof(dev), device);
	if (device) {
		device->entries++;
		return BINO_OK;
	}
	if (ARRAY_RESERVE(target->devices, target->cap_devices,
			  target->n_devices + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	device = calloc(1, sizeof(*device));
	if (!device)
		return BINO_ERROR_NO_MEMORY;
	device->path = strdup(bino_entry_path(entry));
	if (!device->path) {
		free(device);
		return BINO_ERROR_NO_MEMORY;
	}
	device->dev = dev;
	device->entries = 1;
	mount = bino_entry_mount(entry);
	/* The walk's table ends with the walk; keep the audit's own. */
	if (mount)
		device->mount = bino_mounts_find_id(aw->audit->own_mounts,
						    bino_mount_id(mount));
	device->subvolid = bino_entry_key(entry).subvolid;
	if (bino_mounts_find_dev(live, dev))
		device->kind = BINO_DEVICE_LISTED;
	else if (mount && strcmp(bino_mount_fstype(mount), "btrfs") == 0 &&
		 device->subvolid)
		device->kind = BINO_DEVICE_BTRFS_SUBVOL;
	else if (mount && strcmp(bino_mount_fstype(mount), "overlay") == 0)
		device->kind = BINO_DEVICE_OVERLAY;
	else
		device->kind = BINO_DEVICE_ANOMALY;
	HASH_ADD(hh, target->device_index, dev, sizeof(device->dev), device);
	if (out_of_memory) {
		free(device->path);
		free(device);
		return BINO_ERROR_NO_MEMORY;
	}
	target->devices[target->n_devices++] = device;
	return BINO_OK;
}

/* The path of @path inside its filesystem, from @mount's mountinfo root. */
static char *fs_path_of(const struct bino_mount *mount, const char *path)
{
	const char *root = bino_mount_root(mount);
	const char *rel = bino__path_rest(path, bino_mount_target(mount));
	char *result;

	if (!rel)
		return NULL;
	if (strcmp(root, "/") == 0)
		root = "";
	if (!*root && !*rel)
		return strdup("/");
	result = malloc(strlen(root) + strlen(rel) + 1);
	if (result) {
		strcpy(result, root);
		strcat(result, rel);
	}
	return result;
}

/*
 * What btrfs says of the subvolume @subvol whose root (or a directory in
 * it) is at @path, or why it cannot say (info_error, info_errno).
 */
static void audit_subvol_info(struct bino_audit_subvol *subvol,
			      const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC |
				    O_NONBLOCK);

	if (fd < 0)
		subvol->info_error = BINO_ERROR_OPEN_FAILED;
	else if (bino__subvol_info_fd(fd, &subvol->info, &subvol->info_errno))
		subvol->info_error = BINO_ERROR_SUBVOL_INFO_FAILED;
	if (subvol->info_error) {
		subvol->info_errno = errno ? errno : EIO;
	} else if (subvol->info.id != subvol->id) {
		/* replaced since it was walked */
		subvol->info_error = BINO_ERROR_CHANGED_DURING_WALK;
		subvol->info_errno = ESTALE;
	}
	if (fd >= 0)
		close(fd);
}

enum bino_error bino__audit_note_subvol(struct audit_walk *aw,
					struct bino_entry *entry,
					size_t client_fs, bool holding)
{
	struct bino_audit_target *target = aw->target;
	struct bino_key key = bino_entry_key(entry);
	const struct bino_mount *mount = bino_entry_mount(entry);
	struct bino_audit_subvol *subvol;
	bool is_root = bino_entry_flags(entry) & BINO_ENTRY_SUBVOL_ROOT;
	int depth = bino_entry_depth(entry);
	size_t i;

	if (!key.subvolid)
		return BINO_OK;
	for (i = 0; i < target->n_subvols; i++) {
		if (target->subvols[i].id == key.subvolid &&
		    target->subvols[i].dev == key.dev)
			return BINO_OK;
	}
	if (ARRAY_RESERVE(target->subvols, target->cap_subvols,
			  target->n_subvols + 1) != 0)
		return BINO_ERROR_NO_MEMORY;
	subvol = &target->subvols[target->n_subvols];
	memset(subvol, 0, sizeof(*subvol));
	subvol->dev = key.dev;
	subvol->id = key.subvolid;
	subvol->client_fs = client_fs;
	/*
	 * A subvolume's root is linked in its parent's tree, so the parent is
	 * the subvolume of the directory it was met in, unless it was reached
	 * through a mount: known even when its root cannot be opened.
	 */
	if (is_root && depth > 0 &&
	    !(bino_entry_flags(entry) & BINO_ENTRY_MOUNT_ROOT) &&
	    aw->levels[depth - 1].key.dev == key.dev)
		subvol->walk_parent_id = aw->levels[depth - 1].key.subvolid;
	if (is_root || !holding) {
		subvol->path = strdup(bino_entry_path(entry));
		if (!subvol->path)
			return BINO_ERROR_NO_MEMORY;
		if (mount) {
			subvol->fs_path = fs_path_of(mount, subvol->path);
			if (!subvol->fs_path && errno == ENOMEM) {
				free(subvol->path);
				return BINO_ERROR_NO_MEMORY;
			}
		}
	}
	target->n_subvols++;
	audit_subvol_info(subvol, bino_entry_path(entry));
	return BINO_OK;
}

/* The server's btrfs mounts of one filesystem, in table order. */
struct audit_fs_mounts {
	uint64_t dev; /* the filesystem's, as in struct bino_key */
	const struct bino_mount **mounts;
	size_t n_mounts, cap_mounts;
};

/*
 * The server's btrfs mounts of the filesystem of device @dev, into *@fs:
 * those of that device, or of the source this machine mounts it from (a
 * server table read from a file has its own device numbers).
 */
static enum bino_error audit_fs_mounts(const struct bino_audit *audit,
				       uint64_t dev, struct audit_fs_mounts *fs)
{
	const struct bino_mounts *server = audit->server;
	const struct bino_mount *live =
		bino_mounts_find_dev(audit->own_mounts, dev);
	size_t i, n = bino_mounts_count(server);

	fs->dev = dev;
	fs->n_mounts = 0;
	for (i = 0; i < n; i++) {
		const struct bino_mount *mount = bino_mounts_get(server, i);

		if (strcmp(bino_mount_fstype(mount), "btrfs") != 0)
			continue;
		if (bino_mount_dev(mount) != dev &&
		    !(live && *bino_mount_source(live) &&
		      strcmp(bino_mount_source(live),
			     bino_mount_source(mount)) == 0))
			continue;
		if (ARRAY_RESERVE(fs->mounts, fs->cap_mounts,
				  fs->n_mounts + 1) != 0)
			return BINO_ERROR_NO_MEMORY;
		fs->mounts[fs->n_mounts++] = mount;
	}
	return BINO_OK;
}

/* The mounts of @fs (its filesystem's) that show @subvol: its root. */
static enum bino_error audit_subvol_mounts(const struct audit_fs_mounts *fs,
					   struct bino_audit_subvol *subvol)
{
	size_t i;

	for (i = 0; i < fs->n_mounts; i++) {
		const struct bino_mount *mount = fs->mounts[i];

		if (subvol->fs_path ?
			    strcmp(bino_mount_root(mount), subvol->fs_path) != 0 :
			    bino_mount_subvolid(mount) != subvol->id)
			continue;
		if (ARRAY_RESERVE(subvol->mounts, subvol->cap_mounts,
				  subvol->n_mounts + 1) != 0)
			return BINO_ERROR_NO_MEMORY;
		subvol->mounts[subvol->n_mounts++] = mount;
	}
	return BINO_OK;
}

struct uuid_lookup {
	const uint8_t *uuid;
	uint64_t id;
};

static enum bino_error uuid_lookup_one(const char *path,
				       const struct bino__subvol_info *info,
				       void *data)
{
	struct uuid_lookup *lookup = data;

	(void)path;
	if (memcmp(info->uuid, lookup->uuid, sizeof(info->uuid)) != 0)
		return BINO_OK;
	lookup->id = info->id;
	return BINO_ERROR_STOP_ITERATION; /* found */
}

/*
 * The id of the subvolume of the filesystem holding @path whose UUID is
 * @uuid: looked for in the whole list (which needs CAP_SYS_ADMIN), else
 * below @path's own subvolume; 0 when not found.  Best effort: a listing
 * that fails leaves it unknown.
 */
static uint64_t uuid_find(const char *path, const uint8_t *uuid)
{
	struct uuid_lookup lookup = { .uuid = uuid };
	enum bino_error err;
	int errnum;

	err = bino__subvol_list(path, true, uuid_lookup_one, &lookup, &errnum);
	if (err != BINO_ERROR_STOP_ITERATION)
		err = bino__subvol_list(path, false, uuid_lookup_one, &lookup,
					&errnum);
	return err == BINO_ERROR_STOP_ITERATION ? lookup.id : 0;
}

enum bino_error bino__audit_finish_subvols(struct bino_audit *audit,
					   struct bino_audit_target *target)
{
	struct audit_fs_mounts fs = { 0 };
	enum bino_error err = BINO_OK;
	size_t i, j;

	for (i = 0; i < target->n_subvols; i++) {
		struct bino_audit_subvol *subvol = &target->subvols[i];

		/* Asked once per filesystem: its subvolumes come together. */
		if (i == 0 || fs.dev != subvol->dev)
			err = audit_fs_mounts(audit, subvol->dev, &fs);
		if (!err)
			err = audit_subvol_mounts(&fs, subvol);
		if (err)
			break;
		if (subvol->info_errno || !subvol->info.is_snapshot)
			continue;
		for (j = 0; j < target->n_subvols; j++) {
			const struct bino_audit_subvol *other = &target->subvols[j];

			if (!other->info_errno &&
			    memcmp(other->info.uuid, subvol->info.parent_uuid,
				   sizeof(other->info.uuid)) == 0) {
				subvol->snapshot_of = other->id;
				break;
			}
		}
		if (subvol->snapshot_of)
			continue;
		/* Outside the tree: the whole list needs CAP_SYS_ADMIN. */
		subvol->snapshot_of =
			uuid_find(target->path, subvol->info.parent_uuid);
	}
	free(fs.mounts);
	return err;
}
