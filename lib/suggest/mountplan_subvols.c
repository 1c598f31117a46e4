/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The steps for the subvolumes below one audited path (struct subvol_plan):
 * a mount or a skip per subvolume not mounted on its own path, in order, at
 * the first of its paths that reaches it (bino__plan_subvols()), with the
 * facts the server-fstab block is written from; the owner of a subvolume
 * over the limit is read from its own tree, sparing the lookup of its
 * path.  And the plan from an audit's suggestion
 * (bino_mountplan_add_suggestion()), whose subvolumes the walk reached
 * already.  Apart from the tree listing (mountplan_tree.c) because both
 * sources of subvolumes end here.
 */
#include "mountplan_state.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "array.h"
#include "resolve.h"
#include "strbuf.h"
#include "suggest_internal.h"

void bino__subvol_plan_release(struct subvol_plan *sp)
{
	struct subvol_id *entry, *tmp;
	size_t i;

	HASH_ITER(hh, sp->by_id, entry, tmp) {
		HASH_DEL(sp->by_id, entry);
		free(entry);
	}
	if (sp->probe_fd >= 0)
		bino__close_keep_errno(sp->probe_fd);
	for (i = 0; i < sp->n_subvols; i++)
		free(sp->subvols[i].path);
	free(sp->subvols);
	bino__plan_base_close(&sp->base);
}

/*
 * Add a path of a subvolume (@path copied), checked (reached, @owner
 * known) or to be checked when planned; a subvolume's later paths are
 * kept too, in case its first cannot be reached.  BINO_ERROR_NO_MEMORY or
 * BINO_OK.
 */
enum bino_error bino__subvol_plan_add(struct subvol_plan *sp, const char *path,
				      uint64_t id, int64_t owner, bool mounted,
				      bool checked)
{
	struct subvol_id *entry;
	char *copy = strdup(path);
	bool out_of_memory = false;

	if (!copy || ARRAY_RESERVE(sp->subvols, sp->cap_subvols,
				   sp->n_subvols + 1) != 0)
		goto out_no_memory;
	HASH_FIND(hh, sp->by_id, &id, sizeof(id), entry);
	if (!entry) {
		entry = calloc(1, sizeof(*entry));
		if (!entry)
			goto out_no_memory;
		entry->id = id;
		entry->index = sp->n_subvols;
		HASH_ADD(hh, sp->by_id, id, sizeof(entry->id), entry);
		if (out_of_memory) {
			free(entry);
			goto out_no_memory;
		}
	}
	sp->subvols[sp->n_subvols++] = (struct plan_subvol){
		.path = copy, .id = id, .owner = owner, .mounted = mounted,
		.checked = checked, .by_id = entry,
	};
	return BINO_OK;

out_no_memory:
	free(copy);
	return BINO_ERROR_NO_MEMORY;
}

/* The options of a subvolume mount: the filesystem's, then subvolid=. */
static char *mount_options(const struct subvol_plan *sp, uint64_t subvolid)
{
	bool defaults = strcmp(sp->options, "defaults") == 0;
	char id[21], *at = id + sizeof(id);

	*--at = '\0';
	do
		*--at = (char)('0' + subvolid % 10);
	while ((subvolid /= 10) != 0);
	return bino__str_concat((const char *const[]){
		defaults ? "" : sp->options, defaults ? "" : ",", "subvolid=", at,
	}, 4);
}

/*
 * The owner of the directory @path below @base, as the plan sees it;
 * OWNER_UNKNOWN when it cannot be opened beneath @base (the step that
 * follows is then refused when carried out) or is too long to name.
 */
static int64_t subvol_owner(const struct plan_base *base, const char *path)
{
	struct stat st;
	int fd;

	if (base->fd < 0 || strlen(path) >= PATH_MAX)
		return OWNER_UNKNOWN;
	fd = bino__resolve_beneath(base->fd,
				   bino__plan_path_below(path, base->path), O_PATH);
	if (fd < 0)
		return OWNER_UNKNOWN;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return OWNER_UNKNOWN;
	}
	close(fd);
	return st.st_uid;
}

static enum bino_error plan_add_mount(struct bino_mountplan *plan,
				      struct subvol_plan *sp,
				      const struct plan_subvol *subvol)
{
	struct bino_mountplan_step *step;
	enum bino_mountplan_skip skip;
	enum bino_error err;

	/* A mount and a skip are one table: one probe asks for both. */
	if (bino__plan_has(plan, BINO_MOUNTPLAN_MOUNT, subvol->path))
		return BINO_OK;
	step = bino__step_new(BINO_MOUNTPLAN_MOUNT, &sp->base, subvol->path);
	if (!step)
		return BINO_ERROR_NO_MEMORY;
	step->subvolid = subvol->id;
	step->has_uuid = true;
	memcpy(step->uuid, sp->uuid, sizeof(step->uuid));
	step->owner = subvol->owner;
	step->counted_as = subvol->owner < 0 ? subvol->owner :
			   bino__plan_counted_as(plan, subvol->owner);
	step->source = strdup(bino_mount_source(sp->filesystem));
	step->options = mount_options(sp, step->subvolid);
	if (!step->source || !step->options) {
		bino__step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	if (strlen(subvol->path) >= PATH_MAX) {
		step->action = BINO_MOUNTPLAN_SKIP;
		step->skip = BINO_MOUNTPLAN_SKIP_PATH_TOO_LONG;
		return bino__plan_append(plan, step);
	}
	err = bino__policy_take(plan, step->owner, false, &skip);
	if (err) {
		bino__step_free(step);
		return err;
	}
	if (skip) {
		step->action = BINO_MOUNTPLAN_SKIP;
		step->skip = skip;
	}
	return bino__plan_append(plan, step);
}

/*
 * The owner of the root directory of subvolume @id, from its inode item
 * in the subvolume's own tree (BTRFS_IOC_TREE_SEARCH_V2: one call, no path
 * looked up, CAP_SYS_ADMIN); false when it cannot be read (the probe is
 * then given up for the plan: EPERM will not change).  It is the owner as
 * of the last commit: btrfs writes a chown into the tree when it commits
 * (a delayed inode holds it until then).  So it only ever spares a lookup:
 * an owner it says is over the limit gets a skip, anything else the full
 * check, and a subvolume chowned since the commit is planned by its former
 * owner until the next one (30 s by default).
 */
static bool subvol_probe_owner(struct subvol_plan *sp, uint64_t id,
			       int64_t *owner)
{
	/* V2, with room for the one item: no 4 KiB cleared per subvolume. */
	struct {
		struct btrfs_ioctl_search_args_v2 args;
		uint8_t buf[sizeof(struct btrfs_ioctl_search_header) +
			    sizeof(struct btrfs_inode_item)];
	} search = {
		.args = {
			.key = {
				.tree_id = id,
				.min_objectid = SUBVOL_ROOT_INO,
				.max_objectid = SUBVOL_ROOT_INO,
				.min_type = BTRFS_INODE_ITEM_KEY,
				.max_type = BTRFS_INODE_ITEM_KEY,
				.max_transid = UINT64_MAX,
				.nr_items = 1,
			},
			.buf_size = sizeof(search.buf),
		},
	};
	const uint8_t *buf = (const uint8_t *)search.args.buf;
	struct btrfs_ioctl_search_header header;
	struct btrfs_inode_item item;

	if (sp->probe_fd < 0)
		return false;
	if (ioctl(sp->probe_fd, BTRFS_IOC_TREE_SEARCH_V2, &search.args) != 0) {
		if (errno == EPERM || errno == ENOTTY) {
			close(sp->probe_fd);
			sp->probe_fd = -1;
		}
		return false;
	}
	memcpy(&header, buf, sizeof(header));
	if (search.args.key.nr_items != 1 || header.len < sizeof(item))
		return false;
	memcpy(&item, buf + sizeof(header), sizeof(item));
	*owner = le32toh(item.uid);
	return true;
}

/*
 * Whether @subvol is reached at its path, its owner filled in (checked by
 * bino__tree_reaches() unless known), the unreached counted.
 */
static bool subvol_check(struct subvol_plan *sp, struct plan_subvol *subvol)
{
	enum tree_reach reach;

	if (subvol->checked)
		return true;
	reach = bino__tree_reaches(sp, subvol->path, subvol->id, &subvol->owner);
	if (reach == TREE_MISSING)
		sp->unreached++;
	subvol->checked = reach == TREE_REACHES;
	return subvol->checked;
}

/*
 * The steps for the subvolumes of @sp: the mounts each owner has below the
 * path already are counted against the limit first, then each subvolume
 * not mounted on its own path gets a mount or a skip, in order, at the
 * first of its paths that reaches it.  A subvolume whose owner is over
 * the limit already (its owner read from its tree) is skipped without a
 * lookup of its path: one user's 100,000 subvolumes cost 100,000 probes.
 */
enum bino_error bino__plan_subvols(struct bino_mountplan *plan,
				   struct subvol_plan *sp)
{
	enum bino_mountplan_skip skip;
	enum bino_error err = BINO_OK;
	int64_t owner;
	size_t i;

	for (i = 0; !err && i < sp->n_subvols; i++) {
		struct plan_subvol *subvol = &sp->subvols[i];

		if (!subvol->mounted || subvol->by_id->decided ||
		    !subvol_check(sp, subvol))
			continue;
		subvol->by_id->decided = true;
		err = bino__policy_take(plan, subvol->owner, true, &skip);
	}
	for (i = 0; !err && i < sp->n_subvols; i++) {
		struct plan_subvol *subvol = &sp->subvols[i];

		if (subvol->mounted || subvol->by_id->decided)
			continue;
		if (!subvol->checked && subvol_probe_owner(sp, subvol->id, &owner) &&
		    bino__policy_over(plan, owner))
			subvol->owner = owner; /* a skip step: nothing opened */
		else if (!subvol_check(sp, subvol))
			continue;
		subvol->by_id->decided = true;
		err = plan_add_mount(plan, sp, subvol);
	}
	return err;
}

BINO_PUBLIC enum bino_error
bino_mountplan_add_suggestion(struct bino_mountplan *plan,
			      const struct bino_suggestion *suggestion)
{
	struct subvol_plan sp = { .base = { .fd = -1 }, .probe_fd = -1 };
	enum bino_error err = BINO_OK;
	size_t i;

	if (!plan || !suggestion)
		return BINO_ERROR_INVALID_ARGUMENT;
	err = bino__plan_tallies_start(plan, bino__suggestion_path(suggestion));
	if (err)
		return err;
	sp.filesystem = bino_suggestion_mount(suggestion);
	if (strcmp(bino_mount_fstype(sp.filesystem), "btrfs") != 0 ||
	    !bino_suggestion_fs_uuid(suggestion) ||
	    bino_suggestion_subvol_count(suggestion) == 0)
		return BINO_OK; /* nothing a btrfs mount could fix */
	memcpy(sp.uuid, bino_suggestion_fs_uuid(suggestion), sizeof(sp.uuid));
	sp.options = bino_suggestion_mount_options(suggestion);
	bino__plan_base_open(&sp.base, bino__suggestion_path(suggestion));
	for (i = 0; !err && i < bino_suggestion_subvol_count(suggestion); i++) {
		const char *path = bino_audit_subvol_path(
			bino_suggestion_subvol(suggestion, i));

		err = bino__subvol_plan_add(&sp, path, bino_audit_subvol_id(
			bino_suggestion_subvol(suggestion, i)),
			subvol_owner(&sp.base, path),
			bino_suggestion_subvol_mounted(suggestion, i), true);
	}
	if (!err)
		err = bino__plan_subvols(plan, &sp);
	bino__subvol_plan_release(&sp);
	return err;
}
