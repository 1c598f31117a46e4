/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit's results, read through the public getters (bino_audit_get()
 * and the bino_audit_export_*, _example_*, _submount_*, _subvol_* and
 * _device_* accessors); the library prints nothing.  Pairs are sorted when
 * first asked for.
 */
#include "audit_state.h"

#include <stdlib.h>

BINO_PUBLIC size_t bino_audit_count(const struct bino_audit *audit)
{
	return audit->count;
}

BINO_PUBLIC const struct bino_audit_export *
bino_audit_get(const struct bino_audit *audit, size_t index)
{
	return index < audit->count ? audit->items[index] : NULL;
}

BINO_PUBLIC const char *
bino_audit_export_path(const struct bino_audit_export *export)
{
	return export->path;
}

BINO_PUBLIC const struct bino_export *
bino_audit_export_source(const struct bino_audit_export *export)
{
	return export->source;
}

BINO_PUBLIC bool
bino_audit_export_covered(const struct bino_audit_export *export)
{
	return export->covered;
}

BINO_PUBLIC int bino_audit_export_flags(const struct bino_audit_export *export)
{
	return export->flags;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_export_filesystem(const struct bino_audit_export *export)
{
	return export->filesystem;
}

BINO_PUBLIC enum bino_error
bino_audit_export_error(const struct bino_audit_export *export)
{
	return export->error;
}

BINO_PUBLIC int bino_audit_export_errno(const struct bino_audit_export *export)
{
	return export->error_errno;
}

BINO_PUBLIC uint64_t
bino_audit_export_entries(const struct bino_audit_export *export)
{
	return export->entries;
}

BINO_PUBLIC uint64_t
bino_audit_export_unreadable(const struct bino_audit_export *export)
{
	return export->unreadable;
}

BINO_PUBLIC uint64_t
bino_audit_export_collisions(const struct bino_audit_export *export,
			     enum bino_collision collision)
{
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return export->collisions[collision];
}

BINO_PUBLIC size_t
bino_audit_export_client_fs_count(const struct bino_audit_export *export)
{
	return export->n_client_fs;
}

BINO_PUBLIC size_t
bino_audit_export_example_count(const struct bino_audit_export *export,
				enum bino_collision collision)
{
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return export->n_examples[collision];
}

BINO_PUBLIC const struct bino_audit_example *
bino_audit_export_example(const struct bino_audit_export *export,
			  enum bino_collision collision, size_t index)
{
	if ((unsigned int)collision >= BINO_COLLISION_NR ||
	    index >= export->n_examples[collision])
		return NULL;
	return &export->examples[collision][index];
}

BINO_PUBLIC const char *
bino_audit_example_path(const struct bino_audit_example *example, int which)
{
	return which == 0 || which == 1 ? example->path[which] : NULL;
}

BINO_PUBLIC struct bino_key
bino_audit_example_key(const struct bino_audit_example *example, int which)
{
	struct bino_key none = { 0, 0, 0 };

	return which == 0 || which == 1 ? example->key[which] : none;
}

BINO_PUBLIC size_t
bino_audit_example_client_fs(const struct bino_audit_example *example)
{
	return example->client_fs;
}

static int compare_pairs(const void *a, const void *b)
{
	const struct bino_audit_pair *pa = a, *pb = b;

	if (pa->subvolid_a != pb->subvolid_a)
		return pa->subvolid_a < pb->subvolid_a ? -1 : 1;
	if (pa->subvolid_b != pb->subvolid_b)
		return pa->subvolid_b < pb->subvolid_b ? -1 : 1;
	return 0;
}

BINO_PUBLIC size_t
bino_audit_export_pair_count(const struct bino_audit_export *export)
{
	return export->n_pairs;
}

BINO_PUBLIC const struct bino_audit_pair *
bino_audit_export_pair(const struct bino_audit_export *export, size_t index)
{
	if (index >= export->n_pairs)
		return NULL;
	/* Sorted on first use: the results no longer change after the run. */
	if (index == 0)
		qsort(((struct bino_audit_export *)export)->pairs,
		      export->n_pairs, sizeof(*export->pairs), compare_pairs);
	return &export->pairs[index];
}

BINO_PUBLIC size_t
bino_audit_export_submount_count(const struct bino_audit_export *export)
{
	return export->n_submounts;
}

BINO_PUBLIC const struct bino_audit_submount *
bino_audit_export_submount(const struct bino_audit_export *export, size_t index)
{
	return index < export->n_submounts ? &export->submounts[index] : NULL;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_submount_mount(const struct bino_audit_submount *submount)
{
	return submount->mount;
}

BINO_PUBLIC enum bino_submount_view
bino_audit_submount_view(const struct bino_audit_submount *submount)
{
	return submount->view;
}

BINO_PUBLIC size_t
bino_audit_submount_client_fs(const struct bino_audit_submount *submount)
{
	return submount->client_fs;
}

BINO_PUBLIC size_t
bino_audit_export_subvol_count(const struct bino_audit_export *export)
{
	return export->n_subvols;
}

BINO_PUBLIC const struct bino_audit_subvol *
bino_audit_export_subvol(const struct bino_audit_export *export, size_t index)
{
	return index < export->n_subvols ? &export->subvols[index] : NULL;
}

BINO_PUBLIC uint64_t bino_audit_subvol_id(const struct bino_audit_subvol *subvol)
{
	return subvol->id;
}

BINO_PUBLIC const char *
bino_audit_subvol_path(const struct bino_audit_subvol *subvol)
{
	return subvol->path;
}

BINO_PUBLIC const char *
bino_audit_subvol_fs_path(const struct bino_audit_subvol *subvol)
{
	return subvol->fs_path;
}

BINO_PUBLIC int
bino_audit_subvol_info_errno(const struct bino_audit_subvol *subvol)
{
	return subvol->info_errno;
}

BINO_PUBLIC uint64_t
bino_audit_subvol_parent_id(const struct bino_audit_subvol *subvol)
{
	return subvol->info_errno ? subvol->walk_parent_id :
				    subvol->info.parent_id;
}

BINO_PUBLIC bool
bino_audit_subvol_read_only(const struct bino_audit_subvol *subvol)
{
	return !subvol->info_errno && subvol->info.read_only;
}

BINO_PUBLIC const uint8_t *
bino_audit_subvol_uuid(const struct bino_audit_subvol *subvol)
{
	return subvol->info_errno ? NULL : subvol->info.uuid;
}

BINO_PUBLIC const uint8_t *
bino_audit_subvol_parent_uuid(const struct bino_audit_subvol *subvol)
{
	if (subvol->info_errno || !subvol->info.is_snapshot)
		return NULL;
	return subvol->info.parent_uuid;
}

BINO_PUBLIC uint64_t
bino_audit_subvol_snapshot_of(const struct bino_audit_subvol *subvol)
{
	return subvol->snapshot_of;
}

BINO_PUBLIC size_t
bino_audit_subvol_client_fs(const struct bino_audit_subvol *subvol)
{
	return subvol->client_fs;
}

BINO_PUBLIC bool
bino_audit_export_client_view(const struct bino_audit_export *export)
{
	return export->client_view;
}

BINO_PUBLIC uint64_t
bino_audit_subvol_client_dev(const struct bino_audit_subvol *subvol)
{
	return subvol->client_dev;
}

BINO_PUBLIC bool
bino_audit_subvol_own_filesystem(const struct bino_audit_subvol *subvol)
{
	return subvol->own_filesystem;
}

BINO_PUBLIC size_t
bino_audit_subvol_mount_count(const struct bino_audit_subvol *subvol)
{
	return subvol->n_mounts;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_subvol_mount(const struct bino_audit_subvol *subvol, size_t index)
{
	return index < subvol->n_mounts ? subvol->mounts[index] : NULL;
}

BINO_PUBLIC size_t
bino_audit_export_device_count(const struct bino_audit_export *export)
{
	return export->n_devices;
}

BINO_PUBLIC const struct bino_audit_device *
bino_audit_export_device(const struct bino_audit_export *export, size_t index)
{
	return index < export->n_devices ? export->devices[index] : NULL;
}

BINO_PUBLIC uint64_t
bino_audit_device_dev(const struct bino_audit_device *device)
{
	return device->dev;
}

BINO_PUBLIC enum bino_device_kind
bino_audit_device_kind(const struct bino_audit_device *device)
{
	return device->kind;
}

BINO_PUBLIC uint64_t
bino_audit_device_entries(const struct bino_audit_device *device)
{
	return device->entries;
}

BINO_PUBLIC const char *
bino_audit_device_path(const struct bino_audit_device *device)
{
	return device->path;
}

BINO_PUBLIC uint64_t
bino_audit_device_subvolid(const struct bino_audit_device *device)
{
	return device->subvolid;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_device_mount(const struct bino_audit_device *device)
{
	return device->mount;
}
