/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The audit's results, read through the public getters (bino_audit_get()
 * and the bino_audit_target_*, _example_*, _submount_*, _subvol_* and
 * _device_* accessors); the library prints nothing.  Pairs are sorted when
 * first asked for.
 */
#include "audit_state.h"

#include <stdlib.h>

BINO_PUBLIC size_t bino_audit_count(const struct bino_audit *audit)
{
	if (!audit)
		return 0;
	return audit->count;
}

BINO_PUBLIC const struct bino_audit_target *
bino_audit_get(const struct bino_audit *audit, size_t index)
{
	if (!audit)
		return NULL;
	return index < audit->count ? audit->items[index] : NULL;
}

BINO_PUBLIC const char *
bino_audit_target_path(const struct bino_audit_target *target)
{
	if (!target)
		return NULL;
	return target->path;
}

BINO_PUBLIC const struct bino_export *
bino_audit_target_export(const struct bino_audit_target *target)
{
	if (!target)
		return NULL;
	return target->source;
}

BINO_PUBLIC bool
bino_audit_target_covered(const struct bino_audit_target *target)
{
	if (!target)
		return false;
	return target->covered;
}

BINO_PUBLIC int bino_audit_target_flags(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->flags;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_target_mount(const struct bino_audit_target *target)
{
	if (!target)
		return NULL;
	return target->filesystem;
}

BINO_PUBLIC enum bino_error
bino_audit_target_error(const struct bino_audit_target *target)
{
	if (!target)
		return BINO_ERROR_INVALID_ARGUMENT;
	return target->error;
}

BINO_PUBLIC int bino_audit_target_errno(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->error_errno;
}

BINO_PUBLIC uint64_t
bino_audit_target_entries(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->entries;
}

BINO_PUBLIC uint64_t
bino_audit_target_unreadable(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->unreadable;
}

BINO_PUBLIC uint64_t
bino_audit_target_collisions(const struct bino_audit_target *target,
			     enum bino_collision collision)
{
	if (!target)
		return 0;
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return target->collisions[collision];
}

BINO_PUBLIC size_t
bino_audit_target_client_fs_count(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->n_client_fs;
}

BINO_PUBLIC size_t
bino_audit_target_example_count(const struct bino_audit_target *target,
				enum bino_collision collision)
{
	if (!target)
		return 0;
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return target->n_examples[collision];
}

BINO_PUBLIC const struct bino_audit_example *
bino_audit_target_example(const struct bino_audit_target *target,
			  enum bino_collision collision, size_t index)
{
	if (!target)
		return NULL;
	if ((unsigned int)collision >= BINO_COLLISION_NR ||
	    index >= target->n_examples[collision])
		return NULL;
	return &target->examples[collision][index];
}

BINO_PUBLIC const char *
bino_audit_example_path(const struct bino_audit_example *example, int which)
{
	if (!example)
		return NULL;
	return which == 0 || which == 1 ? example->path[which] : NULL;
}

BINO_PUBLIC struct bino_key
bino_audit_example_key(const struct bino_audit_example *example, int which)
{
	struct bino_key none = { 0, 0, 0 };

	if (!example)
		return (struct bino_key){ 0 };

	return which == 0 || which == 1 ? example->key[which] : none;
}

BINO_PUBLIC size_t
bino_audit_example_client_fs(const struct bino_audit_example *example)
{
	if (!example)
		return 0;
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
bino_audit_target_pair_count(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->n_pairs;
}

BINO_PUBLIC const struct bino_audit_pair *
bino_audit_target_pair(const struct bino_audit_target *target, size_t index)
{
	if (!target)
		return NULL;
	if (index >= target->n_pairs)
		return NULL;
	/* Sorted on first use: the results no longer change after the run. */
	if (index == 0)
		qsort(((struct bino_audit_target *)target)->pairs,
		      target->n_pairs, sizeof(*target->pairs), compare_pairs);
	return &target->pairs[index];
}

BINO_PUBLIC size_t
bino_audit_target_submount_count(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->n_submounts;
}

BINO_PUBLIC const struct bino_audit_submount *
bino_audit_target_submount(const struct bino_audit_target *target, size_t index)
{
	if (!target)
		return NULL;
	return index < target->n_submounts ? &target->submounts[index] : NULL;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_submount_mount(const struct bino_audit_submount *submount)
{
	if (!submount)
		return NULL;
	return submount->mount;
}

BINO_PUBLIC enum bino_submount_view
bino_audit_submount_view(const struct bino_audit_submount *submount)
{
	if (!submount)
		return 0;
	return submount->view;
}

BINO_PUBLIC size_t
bino_audit_submount_client_fs(const struct bino_audit_submount *submount)
{
	if (!submount)
		return 0;
	return submount->client_fs;
}

BINO_PUBLIC size_t
bino_audit_target_subvol_count(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->n_subvols;
}

BINO_PUBLIC const struct bino_audit_subvol *
bino_audit_target_subvol(const struct bino_audit_target *target, size_t index)
{
	if (!target)
		return NULL;
	return index < target->n_subvols ? &target->subvols[index] : NULL;
}

BINO_PUBLIC uint64_t bino_audit_subvol_id(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->id;
}

BINO_PUBLIC const char *
bino_audit_subvol_path(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	return subvol->path;
}

BINO_PUBLIC const char *
bino_audit_subvol_fs_path(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	return subvol->fs_path;
}

BINO_PUBLIC int
bino_audit_subvol_info_errno(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->info_errno;
}

BINO_PUBLIC enum bino_error
bino_audit_subvol_info_error(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return BINO_ERROR_INVALID_ARGUMENT;
	return subvol->info_error;
}

BINO_PUBLIC uint64_t bino_audit_pair_subvolid(const struct bino_audit_pair *pair,
					     int which)
{
	if (!pair)
		return 0;
	if (which == 0)
		return pair->subvolid_a;
	return which == 1 ? pair->subvolid_b : 0;
}

BINO_PUBLIC uint64_t
bino_audit_pair_collisions(const struct bino_audit_pair *pair,
			   enum bino_collision collision)
{
	if (!pair)
		return 0;
	if ((unsigned int)collision >= BINO_COLLISION_NR)
		return 0;
	return pair->collisions[collision];
}

BINO_PUBLIC uint64_t
bino_audit_subvol_parent_id(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->info_errno ? subvol->walk_parent_id :
				    subvol->info.parent_id;
}

BINO_PUBLIC bool
bino_audit_subvol_read_only(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return false;
	return !subvol->info_errno && subvol->info.read_only;
}

BINO_PUBLIC const uint8_t *
bino_audit_subvol_uuid(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	return subvol->info_errno ? NULL : subvol->info.uuid;
}

BINO_PUBLIC const uint8_t *
bino_audit_subvol_parent_uuid(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return NULL;
	if (subvol->info_errno || !subvol->info.is_snapshot)
		return NULL;
	return subvol->info.parent_uuid;
}

BINO_PUBLIC uint64_t
bino_audit_subvol_snapshot_of(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->snapshot_of;
}

BINO_PUBLIC size_t
bino_audit_subvol_client_fs(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->client_fs;
}

BINO_PUBLIC bool
bino_audit_target_client_view(const struct bino_audit_target *target)
{
	if (!target)
		return false;
	return target->client_view;
}

BINO_PUBLIC uint64_t
bino_audit_subvol_client_dev(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->client_dev;
}

BINO_PUBLIC bool
bino_audit_subvol_own_filesystem(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return false;
	return subvol->own_filesystem;
}

BINO_PUBLIC size_t
bino_audit_subvol_mount_count(const struct bino_audit_subvol *subvol)
{
	if (!subvol)
		return 0;
	return subvol->n_mounts;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_subvol_mount(const struct bino_audit_subvol *subvol, size_t index)
{
	if (!subvol)
		return NULL;
	return index < subvol->n_mounts ? subvol->mounts[index] : NULL;
}

BINO_PUBLIC size_t
bino_audit_target_device_count(const struct bino_audit_target *target)
{
	if (!target)
		return 0;
	return target->n_devices;
}

BINO_PUBLIC const struct bino_audit_device *
bino_audit_target_device(const struct bino_audit_target *target, size_t index)
{
	if (!target)
		return NULL;
	return index < target->n_devices ? target->devices[index] : NULL;
}

BINO_PUBLIC uint64_t
bino_audit_device_dev(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->dev;
}

BINO_PUBLIC enum bino_device_kind
bino_audit_device_kind(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->kind;
}

BINO_PUBLIC uint64_t
bino_audit_device_entries(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->entries;
}

BINO_PUBLIC const char *
bino_audit_device_path(const struct bino_audit_device *device)
{
	if (!device)
		return NULL;
	return device->path;
}

BINO_PUBLIC uint64_t
bino_audit_device_subvolid(const struct bino_audit_device *device)
{
	if (!device)
		return 0;
	return device->subvolid;
}

BINO_PUBLIC const struct bino_mount *
bino_audit_device_mount(const struct bino_audit_device *device)
{
	if (!device)
		return NULL;
	return device->mount;
}
