/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Mount plans: the server mounts that make an export's btrfs subvolumes
 * filesystems of their own for NFS clients, as steps that can be shown and
 * then, explicitly, carried out.  Components:
 *
 *  - plan_add_mount(): a step per subvolume of a suggestion that is not
 *    mounted on its own path, with exactly the facts the server-fstab block
 *    is written from (filesystem UUID, subvolume ID, the options of the
 *    mount holding the export minus subvol=/subvolid=), the audited path it
 *    lies below, and the owner of its root directory; or a skip step where
 *    the policy below refuses it.
 *  - tree_*(): the same steps without an audit, for bino_mountplan_add_subvols():
 *    the subvolumes below the path from the btrfs subvolume tree (probe/
 *    subvol.c: the root tree's ROOT_REFs, never a directory read), from
 *    the root of the subvolume holding the path and from each mount of the
 *    filesystem below it, each kept only where a lookup beneath the path
 *    reaches its root now (tree_reaches(): what a walk would have met, so
 *    never a snapshot's placeholder), its owner from that one stat.  The
 *    lookup is made when the subvolume's step is planned (plan_subvols()),
 *    and not at all for one whose owner, read from its own tree in one
 *    call (subvol_probe_owner()), is over the limit already: its skip
 *    step costs a probe and a counter.
 *  - The cost is linear in the subvolumes: the steps are found by path,
 *    the subvolumes by ID and the owners' tallies by owner in uthash
 *    tables (lib/util/hash.h), never by a search of the plan.
 *  - plan_add_stale(): a step per btrfs mount below a path whose root
 *    subvolume was deleted (mountinfo shows its root as "PATH//deleted",
 *    the kernel's dentry_path() for an unlinked dentry), with its mount ID.
 *  - step_open_*(): resolve a step's mount point as root must where users
 *    own the directories: the audited directory is opened with no symbolic
 *    link on its path and must be the one the plan saw (device and inode);
 *    the mount point is opened from it with openat2(RESOLVE_BENEATH |
 *    RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS) (component by component
 *    with O_NOFOLLOW where openat2 is missing), so no symbolic link and no
 *    ".." anywhere can lead outside it, however the names are swapped
 *    (renameat2 RENAME_EXCHANGE) meanwhile.
 *  - step_apply(): a mount is made only on a directory that is the root of
 *    the planned subvolume itself (inode 256 of that subvolume ID, on the
 *    filesystem of that UUID, owned as planned), through /proc/self/fd of
 *    that very descriptor, never by its path again: should the user move
 *    it afterwards, the mount shows that subvolume on itself, nothing else.
 *    An unmount is made only on the mount whose ID the plan read from
 *    mountinfo, again through /proc/self/fd.  A mismatch refuses that step.
 *
 * The policy (who may make root mount; btrfs-ino(1) says the same): a
 * subvolume whose root directory root owns is always mounted: only root
 * can make one (a snapshot takes its source's owner, and the kernel lets
 * only the source's owner snapshot it), so these are the admin's, snapper's
 * and btrbk's.  Any other owner's subvolumes are mounted while that owner
 * has fewer than max_user_mounts (default 100) mounted below the audited
 * path, those mounted already counted: any user may create subvolumes, and
 * thousands of mounts would be made for one user's loop otherwise.  The
 * subordinate user IDs a subuid(5) file gives a user count as that user
 * (counted_as(): a binary search of the ranges), as a user namespace lets
 * them chown a subvolume to each; and all owners but root together stop at
 * max_total_user_mounts (default 1000).  The tallies are a uthash by owner,
 * so an owner over the limit costs a probe, not a search.  A
 * mount point longer than PATH_MAX is skipped: mount(8), findmnt and
 * exportfs cannot name it.  Skips are steps too, so a dry run lists them.
 *
 * Planning reads only; applying is the one call that changes the system.
 * mount(2) takes a device, not "UUID=": the device of the mount holding the
 * export is used, which is the filesystem of that UUID (read from it).
 */
#include "suggest_internal.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pwd.h>
#include <limits.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "array.h"
#include "hash.h"
#include "mounts.h"
#include "path.h"
#include "resolve.h"
#include "subvol.h"

/* The inode of every btrfs subvolume root (BTRFS_FIRST_FREE_OBJECTID). */
#define SUBVOL_ROOT_INO 256
/* How mountinfo shows the root of a mount whose dentry was deleted. */
#define DELETED_SUFFIX "//deleted"
/* The owner of a mount point that could not be opened when planned. */
#define OWNER_UNKNOWN (-1)

struct bino_mountplan_step {
	enum bino_mountplan_action action;
	enum bino_mountplan_skip skip; /* why, for BINO_MOUNTPLAN_SKIP */
	char *path; /* the mount point */
	char *base; /* the audited directory path lies below (or is) */
	bool has_base_id; /* base could be opened when planned: */
	dev_t base_dev; /* its identity then */
	ino_t base_ino;
	char *source; /* the device to mount, or the stale mount's source */
	char *options; /* mount: the fstab options, subvolid= last */
	char *fs_path; /* unmount: the deleted subvolume's path in the filesystem */
	bool has_uuid;
	uint8_t uuid[16];
	uint64_t subvolid;
	int64_t owner; /* mount: the owner of the root directory, or OWNER_UNKNOWN */
	int64_t counted_as; /* owner, or the user whose subordinate ID it is */
	uint64_t mount_id; /* unmount: the mount's ID in mountinfo */
	UT_hash_handle hh; /* in the plan's by_path[step_group()], by path */
};

/* A range of subordinate user IDs (subuid(5)) and the owner it counts as. */
struct subid_range {
	uint64_t start, end; /* [start, end) */
	uint64_t max_end; /* the greatest end of this range and those before */
	int64_t owner;
};

/*
 * How many subvolume mounts one owner (subordinate IDs folded in) has
 * below the audited path: those there already and those planned.
 */
struct owner_tally {
	int64_t owner;
	size_t mounts;
	UT_hash_handle hh;
};

struct bino_mountplan {
	/* Allocated one by one: pointers to steps stay valid as the array grows. */
	struct bino_mountplan_step **steps;
	size_t n_steps, cap_steps;
	/* The steps by path: mounts and skips, and unmounts (step_group()). */
	struct bino_mountplan_step *by_path[2];
	size_t max_user_mounts; /* per owner other than root, per audited path */
	size_t max_total_user_mounts; /* all owners but root, per audited path */
	size_t unreached; /* tree subvolumes whose root a lookup did not find */
	struct subid_range *subuids; /* sorted by start */
	size_t n_subuids, cap_subuids;
	/* The tallies of the last audited path planned, in the order met. */
	struct owner_tally *tallies; /* uthash head, by owner */
	struct owner_tally **tally_order; /* each allocated apart */
	size_t n_tallies, cap_tallies;
	size_t user_mounts; /* theirs added up */
};

static void step_free(struct bino_mountplan_step *step)
{
	if (!step)
		return;
	free(step->path);
	free(step->base);
	free(step->source);
	free(step->options);
	free(step->fs_path);
	free(step);
}

/* Which of the plan's by_path tables a step of @action is in. */
static size_t step_group(enum bino_mountplan_action action)
{
	return action == BINO_MOUNTPLAN_UMOUNT;
}

/*
 * Whether a step of @action on @path is planned already (a mount and a
 * skip are one: the subvolume on that path has its step).  A hash probe:
 * a plan of 100,000 steps would search itself 100,000 times otherwise.
 */
static bool plan_has(const struct bino_mountplan *plan,
		     enum bino_mountplan_action action, const char *path)
{
	struct bino_mountplan_step *found;

	HASH_FIND(hh, plan->by_path[step_group(action)], path, strlen(path),
		  found);
	return found != NULL;
}

/* Append @step (taken over, also on failure). */
static enum bino_error plan_append(struct bino_mountplan *plan,
				   struct bino_mountplan_step *step)
{
	bool out_of_memory = false;

	if (ARRAY_RESERVE(plan->steps, plan->cap_steps, plan->n_steps + 1) != 0) {
		step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	HASH_ADD_KEYPTR(hh, plan->by_path[step_group(step->action)], step->path,
			strlen(step->path), step);
	if (out_of_memory) {
		step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	plan->steps[plan->n_steps++] = step;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error bino_mountplan_create(int flags,
						  struct bino_mountplan **ret)
{
	struct bino_mountplan *plan;

	if (flags != 0 || !ret)
		return BINO_ERROR_INVALID_ARGUMENT;
	plan = calloc(1, sizeof(*plan));
	if (!plan)
		return BINO_ERROR_NO_MEMORY;
	plan->max_user_mounts = BINO_MOUNTPLAN_DEFAULT_MAX_USER_MOUNTS;
	plan->max_total_user_mounts = BINO_MOUNTPLAN_DEFAULT_MAX_TOTAL_USER_MOUNTS;
	*ret = plan;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error
bino_mountplan_set_max_user_mounts(struct bino_mountplan *plan, size_t max)
{
	if (!plan)
		return BINO_ERROR_INVALID_ARGUMENT;
	plan->max_user_mounts = max;
	return BINO_OK;
}

BINO_PUBLIC enum bino_error
bino_mountplan_set_max_total_user_mounts(struct bino_mountplan *plan, size_t max)
{
	if (!plan)
		return BINO_ERROR_INVALID_ARGUMENT;
	plan->max_total_user_mounts = max;
	return BINO_OK;
}

/* Forget the tallies of the audited path planned last. */
static void tallies_clear(struct bino_mountplan *plan)
{
	size_t i;

	HASH_CLEAR(hh, plan->tallies);
	for (i = 0; i < plan->n_tallies; i++)
		free(plan->tally_order[i]);
	plan->n_tallies = 0;
	plan->user_mounts = 0;
}

BINO_PUBLIC void bino_mountplan_destroy(struct bino_mountplan *plan)
{
	size_t i;

	if (!plan)
		return;
	HASH_CLEAR(hh, plan->by_path[0]);
	HASH_CLEAR(hh, plan->by_path[1]);
	for (i = 0; i < plan->n_steps; i++)
		step_free(plan->steps[i]);
	free(plan->steps);
	tallies_clear(plan);
	free(plan->tally_order);
	free(plan->subuids);
	free(plan);
}

/* ---- subordinate IDs -------------------------------------------------- */

/* A decimal number of @len bytes at @text, below 2^32; false otherwise. */
static bool parse_id(const char *text, size_t len, uint64_t *ret)
{
	uint64_t value = 0;
	size_t i;

	if (len == 0 || len > 10)
		return false;
	for (i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return false;
		value = value * 10 + (uint64_t)(text[i] - '0');
	}
	*ret = value;
	return value <= UINT32_MAX;
}

/*
 * The user a subuid(5) owner field names: a user name (getpwnam_r), else a
 * user ID in decimal, as shadow's subordinate-ID code reads it.  False
 * when it names neither.
 */
static bool subid_owner(const char *name, int64_t *ret)
{
	struct passwd pw, *found = NULL;
	char buf[4096];
	uint64_t uid;

	if (getpwnam_r(name, &pw, buf, sizeof(buf), &found) == 0 && found) {
		*ret = found->pw_uid;
		return true;
	}
	if (!parse_id(name, strlen(name), &uid))
		return false;
	*ret = (int64_t)uid;
	return true;
}

/*
 * One line of a subuid(5) file, "owner:start:count", into @range; false
 * for a comment, a blank or malformed line.  A range whose owner names no
 * user counts as an owner of its own: its first ID.
 */
static bool subid_line(char *line, struct subid_range *range)
{
	char *first = strchr(line, ':'), *second;
	uint64_t start, count;

	line[strcspn(line, "\n")] = '\0';
	if (!first || line[0] == '#' || first == line)
		return false;
	second = strchr(first + 1, ':');
	if (!second || strchr(second + 1, ':') ||
	    !parse_id(first + 1, (size_t)(second - first - 1), &start) ||
	    !parse_id(second + 1, strlen(second + 1), &count) || count == 0 ||
	    start + count - 1 > UINT32_MAX)
		return false;
	*first = '\0';
	range->start = start;
	range->end = start + count;
	if (!subid_owner(line, &range->owner))
		range->owner = (int64_t)start;
	return true;
}

static int subid_compare(const void *a, const void *b)
{
	const struct subid_range *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

BINO_PUBLIC enum bino_error bino_mountplan_add_subid_file(struct bino_mountplan *plan,
							  const char *path)
{
	struct subid_range range;
	char *line = NULL;
	size_t cap = 0, i;
	FILE *file;

	if (!plan)
		return BINO_ERROR_INVALID_ARGUMENT;
	file = fopen(path ? path : "/etc/subuid", "re");
	if (!file)
		return errno == ENOENT ? BINO_OK : BINO_ERROR_OPEN_FAILED;
	while (getline(&line, &cap, file) > 0) {
		if (!subid_line(line, &range))
			continue;
		if (ARRAY_RESERVE(plan->subuids, plan->cap_subuids,
				  plan->n_subuids + 1) != 0) {
			free(line);
			fclose(file);
			return BINO_ERROR_NO_MEMORY;
		}
		plan->subuids[plan->n_subuids++] = range;
	}
	free(line);
	fclose(file);
	/* Sorted, each knowing the furthest end up to it: a binary search. */
	if (plan->n_subuids)
		qsort(plan->subuids, plan->n_subuids, sizeof(*plan->subuids),
		      subid_compare);
	for (i = 0; i < plan->n_subuids; i++) {
		plan->subuids[i].max_end = plan->subuids[i].end;
		if (i && plan->subuids[i - 1].max_end > plan->subuids[i].max_end)
			plan->subuids[i].max_end = plan->subuids[i - 1].max_end;
	}
	return BINO_OK;
}

/*
 * The owner @uid counts as: the user whose subordinate range holds it
 * (overlapping ranges, a mistake, give the one starting last), else @uid.
 */
static int64_t counted_as(const struct bino_mountplan *plan, int64_t uid)
{
	const struct subid_range *r = plan->subuids;
	size_t lo = 0, hi = plan->n_subuids;

	if (uid < 0)
		return uid;
	/* The first range starting after @uid: those before may hold it. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].start <= (uint64_t)uid)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && r[lo - 1].max_end > (uint64_t)uid) {
		lo--;
		if ((uint64_t)uid < r[lo].end)
			return r[lo].owner;
	}
	return uid;
}

/* ---- resolving -------------------------------------------------------- */

/* close(2) that leaves errno as it was. */
static void close_keep_errno(int fd)
{
	int saved = errno;

	close(fd);
	errno = saved;
}

/*
 * The filesystem UUID of the directory @path_fd (an O_PATH descriptor),
 * through a descriptor of it that can take the ioctl; errno left set.
 */
static enum bino_error fs_uuid_of(int path_fd, uint8_t uuid[16])
{
	int fd = openat(path_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC |
			O_NONBLOCK);
	int rc;

	if (fd < 0)
		return BINO_ERROR_OPEN_FAILED;
	rc = bino__fs_uuid_fd(fd, uuid);
	close_keep_errno(fd);
	return rc == 0 ? BINO_OK : BINO_ERROR_SUBVOL_INFO_FAILED;
}

/* @path relative to @base, which it is below or equal to ("."). */
static const char *path_below(const char *path, const char *base)
{
	size_t len = strcmp(base, "/") == 0 ? 0 : strlen(base);

	path += len;
	path += strspn(path, "/");
	return *path ? path : ".";
}

/*
 * The audited directory a plan resolves from, as the plan saw it.  A plan
 * is data (it may come from another machine's mount table): where the
 * directory cannot be opened, its steps are still planned, without its
 * identity, and are refused when carried out.
 */
struct plan_base {
	const char *path;
	int fd; /* O_PATH, or -1: not opened */
	struct stat st;
};

static void base_open(struct plan_base *base, const char *path)
{
	base->path = path;
	base->fd = bino__resolve_no_symlinks(path, O_PATH);
	if (base->fd >= 0 && fstat(base->fd, &base->st) != 0) {
		close(base->fd);
		base->fd = -1;
	}
}

static void base_close(struct plan_base *base)
{
	if (base->fd >= 0)
		close_keep_errno(base->fd);
	base->fd = -1;
}

/* A new step below @base, its path, base and identity copied. */
static struct bino_mountplan_step *step_new(enum bino_mountplan_action action,
					    const struct plan_base *base,
					    const char *path)
{
	struct bino_mountplan_step *step = calloc(1, sizeof(*step));

	if (!step)
		return NULL;
	step->action = action;
	step->owner = OWNER_UNKNOWN;
	step->counted_as = OWNER_UNKNOWN;
	step->has_base_id = base->fd >= 0;
	if (step->has_base_id) {
		step->base_dev = base->st.st_dev;
		step->base_ino = base->st.st_ino;
	}
	step->path = strdup(path);
	step->base = strdup(base->path);
	if (!step->path || !step->base) {
		step_free(step);
		return NULL;
	}
	return step;
}

/* ---- planning --------------------------------------------------------- */

/*
 * A subvolume below the audited path as planning sees it, from a
 * suggestion (the audit's walk) or from the subvolume tree.
 */
struct plan_subvol {
	char *path;
	uint64_t id;
	int64_t owner; /* of its root directory, or OWNER_UNKNOWN */
	bool mounted; /* on its own path */
	bool checked; /* reached there, owner known (else: tree_reaches()) */
};

/*
 * A subvolume of a subvol_plan by ID: the index in subvols[] of its first
 * path (a subvolume listed again below another mount has more), and
 * whether one of its paths has been given its step or counted.
 */
struct subvol_id {
	uint64_t id;
	size_t index;
	bool decided;
	UT_hash_handle hh;
};

/* What the subvolumes below one audited path are planned with. */
struct subvol_plan {
	struct plan_base base;
	uint8_t uuid[16];
	const struct bino_mount *filesystem; /* the mount holding the path */
	const char *options; /* its fstab options ("defaults" for none) */
	struct plan_subvol *subvols; /* parents first */
	size_t n_subvols, cap_subvols;
	struct subvol_id *by_id; /* uthash over subvols[] */
	int probe_fd; /* the audited directory, to search trees; -1: cannot */
	size_t unreached; /* listed, but no lookup found their root (ENOENT) */
};

static void subvol_plan_release(struct subvol_plan *sp)
{
	struct subvol_id *entry, *tmp;
	size_t i;

	HASH_ITER(hh, sp->by_id, entry, tmp) {
		HASH_DEL(sp->by_id, entry);
		free(entry);
	}
	if (sp->probe_fd >= 0)
		close_keep_errno(sp->probe_fd);
	for (i = 0; i < sp->n_subvols; i++)
		free(sp->subvols[i].path);
	free(sp->subvols);
	base_close(&sp->base);
}

/*
 * Add a path of a subvolume (@path copied), checked (reached, @owner
 * known) or to be checked when planned; a subvolume's later paths are
 * kept too, in case its first cannot be reached.  BINO_ERROR_NO_MEMORY or
 * BINO_OK.
 */
static enum bino_error subvol_plan_add(struct subvol_plan *sp, const char *path,
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
		.checked = checked,
	};
	return BINO_OK;

out_no_memory:
	free(copy);
	return BINO_ERROR_NO_MEMORY;
}

/* The options of a subvolume mount: the filesystem's, then subvolid=. */
static char *mount_options(const struct subvol_plan *sp, uint64_t subvolid)
{
	const char *options = sp->options;
	char *text;

	if (strcmp(options, "defaults") == 0)
		options = NULL;
	if (asprintf(&text, "%s%ssubvolid=%" PRIu64, options ? options : "",
		     options ? "," : "", subvolid) < 0)
		return NULL;
	return text;
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
	fd = bino__resolve_beneath(base->fd, path_below(path, base->path), O_PATH);
	if (fd < 0)
		return OWNER_UNKNOWN;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return OWNER_UNKNOWN;
	}
	close(fd);
	return st.st_uid;
}

/* The tally of @owner (a counted_as() value), added (0) if absent; NULL: ENOMEM. */
static struct owner_tally *owner_tally(struct bino_mountplan *plan, int64_t owner)
{
	struct owner_tally *tally;
	bool out_of_memory = false;

	HASH_FIND(hh, plan->tallies, &owner, sizeof(owner), tally);
	if (tally)
		return tally;
	if (ARRAY_RESERVE(plan->tally_order, plan->cap_tallies,
			  plan->n_tallies + 1) != 0)
		return NULL;
	tally = calloc(1, sizeof(*tally));
	if (!tally)
		return NULL;
	tally->owner = owner;
	HASH_ADD(hh, plan->tallies, owner, sizeof(tally->owner), tally);
	if (out_of_memory) {
		free(tally);
		return NULL;
	}
	plan->tally_order[plan->n_tallies++] = tally;
	return tally;
}

/*
 * Whether the policy lets @owner have one more mount, and why not into
 * *@skip (it is counted when allowed, and always when @mounted already).
 * Root's subvolumes always may (only the owner itself: root's subordinate
 * IDs are counted like any user's), and are not counted; OWNER_UNKNOWN is
 * not counted, as its step is refused when carried out.
 */
static enum bino_error policy_take(struct bino_mountplan *plan, int64_t owner,
				   bool mounted, enum bino_mountplan_skip *skip)
{
	struct owner_tally *tally;

	*skip = BINO_MOUNTPLAN_SKIP_NONE;
	if (owner == 0 || owner == OWNER_UNKNOWN)
		return BINO_OK;
	tally = owner_tally(plan, counted_as(plan, owner));
	if (!tally)
		return BINO_ERROR_NO_MEMORY;
	if (!mounted && tally->mounts >= plan->max_user_mounts)
		*skip = BINO_MOUNTPLAN_SKIP_OVER_LIMIT;
	else if (!mounted && plan->user_mounts >= plan->max_total_user_mounts)
		*skip = BINO_MOUNTPLAN_SKIP_OVER_TOTAL;
	if (*skip)
		return BINO_OK;
	tally->mounts++;
	plan->user_mounts++;
	return BINO_OK;
}

static enum bino_error plan_add_mount(struct bino_mountplan *plan,
				      struct subvol_plan *sp,
				      const struct plan_subvol *subvol)
{
	struct bino_mountplan_step *step;
	enum bino_mountplan_skip skip;
	enum bino_error err;

	if (plan_has(plan, BINO_MOUNTPLAN_MOUNT, subvol->path) ||
	    plan_has(plan, BINO_MOUNTPLAN_SKIP, subvol->path))
		return BINO_OK;
	step = step_new(BINO_MOUNTPLAN_MOUNT, &sp->base, subvol->path);
	if (!step)
		return BINO_ERROR_NO_MEMORY;
	step->subvolid = subvol->id;
	step->has_uuid = true;
	memcpy(step->uuid, sp->uuid, sizeof(step->uuid));
	step->owner = subvol->owner;
	step->counted_as = subvol->owner < 0 ? subvol->owner :
			   counted_as(plan, subvol->owner);
	step->source = strdup(bino_mount_source(sp->filesystem));
	step->options = mount_options(sp, step->subvolid);
	if (!step->source || !step->options) {
		step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	if (strlen(subvol->path) >= PATH_MAX) {
		step->action = BINO_MOUNTPLAN_SKIP;
		step->skip = BINO_MOUNTPLAN_SKIP_PATH_TOO_LONG;
		return plan_append(plan, step);
	}
	err = policy_take(plan, step->owner, false, &skip);
	if (err) {
		step_free(step);
		return err;
	}
	if (skip) {
		step->action = BINO_MOUNTPLAN_SKIP;
		step->skip = skip;
	}
	return plan_append(plan, step);
}

/* What a lookup of a subvolume's path beneath the audited path found. */
enum tree_reach {
	TREE_REACHES, /* the subvolume's root */
	TREE_OTHER, /* something else, or nothing it may go through */
	TREE_MISSING, /* no such name (ENOENT): see tree_add_one() */
};

static enum tree_reach tree_reaches(const struct subvol_plan *sp,
				    const char *path, uint64_t id,
				    int64_t *owner);

/*
 * The owner of the root directory of subvolume @id, from its inode item
 * in the subvolume's own tree (BTRFS_IOC_TREE_SEARCH: one call, no path
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
	struct btrfs_ioctl_search_args args = {
		.key = {
			.tree_id = id,
			.min_objectid = SUBVOL_ROOT_INO,
			.max_objectid = SUBVOL_ROOT_INO,
			.min_type = BTRFS_INODE_ITEM_KEY,
			.max_type = BTRFS_INODE_ITEM_KEY,
			.max_transid = UINT64_MAX,
			.nr_items = 1,
		},
	};
	struct btrfs_ioctl_search_header header;
	struct btrfs_inode_item item;

	if (sp->probe_fd < 0)
		return false;
	if (ioctl(sp->probe_fd, BTRFS_IOC_TREE_SEARCH, &args) != 0) {
		if (errno == EPERM || errno == ENOTTY) {
			close(sp->probe_fd);
			sp->probe_fd = -1;
		}
		return false;
	}
	memcpy(&header, args.buf, sizeof(header));
	if (args.key.nr_items != 1 || header.len < sizeof(item))
		return false;
	memcpy(&item, args.buf + sizeof(header), sizeof(item));
	*owner = le32toh(item.uid);
	return true;
}

/*
 * Whether the policy would skip a subvolume of @owner now, without counting
 * it: what lets a subvolume of an owner over the limit cost a probe and a
 * counter, not a lookup of its path.
 */
static bool policy_over(const struct bino_mountplan *plan, int64_t owner)
{
	const struct owner_tally *tally;
	int64_t counted = counted_as(plan, owner);

	if (owner == 0 || owner == OWNER_UNKNOWN)
		return false;
	if (plan->user_mounts >= plan->max_total_user_mounts)
		return true;
	HASH_FIND(hh, plan->tallies, &counted, sizeof(counted), tally);
	return tally && tally->mounts >= plan->max_user_mounts;
}

/*
 * Whether @subvol is reached at its path, its owner filled in (checked by
 * tree_reaches() unless known), the unreached counted.
 */
static bool subvol_check(struct subvol_plan *sp, struct plan_subvol *subvol)
{
	enum tree_reach reach;

	if (subvol->checked)
		return true;
	reach = tree_reaches(sp, subvol->path, subvol->id, &subvol->owner);
	if (reach == TREE_MISSING)
		sp->unreached++;
	subvol->checked = reach == TREE_REACHES;
	return subvol->checked;
}

/* Whether another path of @subvol's subvolume has been decided. */
static struct subvol_id *subvol_decision(struct subvol_plan *sp,
					 const struct plan_subvol *subvol)
{
	struct subvol_id *entry;

	HASH_FIND(hh, sp->by_id, &subvol->id, sizeof(subvol->id), entry);
	return entry;
}

/*
 * The steps for the subvolumes of @sp: the mounts each owner has below the
 * path already are counted against the limit first, then each subvolume
 * not mounted on its own path gets a mount or a skip, in order, at the
 * first of its paths that reaches it.  A subvolume whose owner is over
 * the limit already (its owner read from its tree) is skipped without a
 * lookup of its path: one user's 100,000 subvolumes cost 100,000 probes.
 */
static enum bino_error plan_subvols(struct bino_mountplan *plan,
				    struct subvol_plan *sp)
{
	enum bino_mountplan_skip skip;
	enum bino_error err = BINO_OK;
	struct subvol_id *decision;
	int64_t owner;
	size_t i;

	for (i = 0; !err && i < sp->n_subvols; i++) {
		struct plan_subvol *subvol = &sp->subvols[i];

		decision = subvol_decision(sp, subvol);
		if (!subvol->mounted || decision->decided ||
		    !subvol_check(sp, subvol))
			continue;
		decision->decided = true;
		err = policy_take(plan, subvol->owner, true, &skip);
	}
	for (i = 0; !err && i < sp->n_subvols; i++) {
		struct plan_subvol *subvol = &sp->subvols[i];

		decision = subvol_decision(sp, subvol);
		if (subvol->mounted || decision->decided)
			continue;
		if (!subvol->checked && subvol_probe_owner(sp, subvol->id, &owner) &&
		    policy_over(plan, owner))
			subvol->owner = owner; /* a skip step: nothing opened */
		else if (!subvol_check(sp, subvol))
			continue;
		decision->decided = true;
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
	tallies_clear(plan);
	sp.filesystem = bino_suggestion_mount(suggestion);
	if (strcmp(bino_mount_fstype(sp.filesystem), "btrfs") != 0 ||
	    !bino_suggestion_fs_uuid(suggestion) ||
	    bino_suggestion_subvol_count(suggestion) == 0)
		return BINO_OK; /* nothing a btrfs mount could fix */
	memcpy(sp.uuid, bino_suggestion_fs_uuid(suggestion), sizeof(sp.uuid));
	sp.options = bino_suggestion_mount_options(suggestion);
	base_open(&sp.base, bino__suggestion_path(suggestion));
	for (i = 0; !err && i < bino_suggestion_subvol_count(suggestion); i++) {
		const char *path = bino_audit_subvol_path(
			bino_suggestion_subvol(suggestion, i));

		err = subvol_plan_add(&sp, path, bino_audit_subvol_id(
			bino_suggestion_subvol(suggestion, i)),
			subvol_owner(&sp.base, path),
			bino_suggestion_subvol_mounted(suggestion, i), true);
	}
	if (!err)
		err = plan_subvols(plan, &sp);
	subvol_plan_release(&sp);
	return err;
}

/* ---- planning from the subvolume tree ---------------------------------- */

/* The subvolume @id of @sp, or NULL. */
static const struct plan_subvol *subvol_plan_find(const struct subvol_plan *sp,
						  uint64_t id)
{
	struct subvol_id *entry;

	HASH_FIND(hh, sp->by_id, &id, sizeof(id), entry);
	return entry ? &sp->subvols[entry->index] : NULL;
}


/*
 * Whether the directory @path (below the audited path) is, as a lookup
 * from the audited directory reaches it now, the root of subvolume @id of
 * the audited filesystem: inode 256, that ID, that UUID where it can be
 * read.  Not a placeholder (inode 2) a snapshot holds where its source had
 * a subvolume, nor what another mount hides it under, nor anything reached
 * through a symbolic link.  Its owner into *@owner.  Opened with O_PATH
 * (a dry run by a user may not be able to read it) and never read: an open
 * and a stat per subvolume, nothing per file.
 */
static enum tree_reach tree_reaches(const struct subvol_plan *sp,
				    const char *path, uint64_t id,
				    int64_t *owner)
{
	const char *rel = path_below(path, sp->base.path);
	uint64_t found_id;
	uint8_t uuid[16];
	struct stat st;
	bool same = false;
	int fd, errnum;

	/* Beyond PATH_MAX openat2 cannot take it whole: a name at a time. */
	fd = strlen(rel) >= PATH_MAX ? bino__resolve_by_names(sp->base.fd, rel, O_PATH) :
				       bino__resolve_beneath(sp->base.fd, rel, O_PATH);
	if (fd < 0)
		return errno == ENOENT ? TREE_MISSING : TREE_OTHER;
	if (fstat(fd, &st) != 0 || st.st_ino != SUBVOL_ROOT_INO ||
	    bino__subvolid_file_handle(fd, "", AT_EMPTY_PATH, &found_id,
				       &errnum) != BINO_OK ||
	    found_id != id)
		goto out_close;
	same = true;
	/* Another btrfs has the same IDs; keep what cannot be told apart. */
	if (fs_uuid_of(fd, uuid) == BINO_OK)
		same = memcmp(uuid, sp->uuid, sizeof(uuid)) == 0;
	/* As the step's owner, which is checked before mounting. */
	*owner = OWNER_UNKNOWN;
	if (strlen(path) < PATH_MAX)
		*owner = st.st_uid;

out_close:
	close(fd);
	return same ? TREE_REACHES : TREE_OTHER;
}

/* Whether the mount on @path is one of subvolume @id of the filesystem. */
static bool tree_mounted(const struct subvol_plan *sp,
			 const struct bino_mounts *mounts, const char *path,
			 uint64_t id)
{
	const struct bino_mount *mount = bino__mounts_at(mounts, path);

	return mount && strcmp(bino_mount_fstype(mount), "btrfs") == 0 &&
	       bino_mount_dev(mount) == bino_mount_dev(sp->filesystem) &&
	       bino_mount_subvolid(mount) == id;
}

/* One subvolume root's listing: where the paths it yields are. */
struct tree_listing {
	struct subvol_plan *sp;
	const struct bino_mounts *mounts;
	const char *root; /* the listed subvolume's root, absolute */
	enum bino_error err; /* why the listing was stopped */
};

/* @rel below @root, absolute; NULL when out of memory. */
static char *path_join(const char *root, const char *rel)
{
	char *path;

	if (asprintf(&path, "%s/%s", strcmp(root, "/") == 0 ? "" : root,
		     rel) < 0)
		return NULL;
	return path;
}

/*
 * A subvolume of the listing: kept, unchecked, when it lies strictly below
 * the audited path; plan_subvols() checks it is reachable there (its first
 * path that is, as a walk meets it first) when its step is planned.  One
 * whose name is not found then is counted as unreached: btrfs links a new
 * subvolume in the root tree while its transaction commits, but the name
 * appears in the directory only when the call that made it returns (until
 * then a lookup meets the negative dentry the creating call holds), so a
 * plan made in between sees the subvolume and no path to it; a keeper
 * plans again a moment later.
 */
static enum bino_error tree_add_one(const char *rel,
				    const struct bino__subvol_info *info,
				    void *data)
{
	struct tree_listing *listing = data;
	struct subvol_plan *sp = listing->sp;
	char *path = path_join(listing->root, rel);

	if (!path) {
		listing->err = BINO_ERROR_NO_MEMORY;
		return listing->err;
	}
	if (bino__path_below(path, sp->base.path))
		listing->err = subvol_plan_add(sp, path, info->id, OWNER_UNKNOWN,
					       tree_mounted(sp, listing->mounts,
							    path, info->id),
					       false);
	free(path);
	return listing->err;
}

/*
 * List the subvolumes below the subvolume whose root is @root_fd, which
 * is at @root: what adding them failed with, or
 * BINO_ERROR_SUBVOL_INFO_FAILED with errno set when the listing failed
 * (the public API's callers read it).
 */
static enum bino_error tree_list(struct tree_listing *listing,
				 const char *root, int root_fd)
{
	enum bino_error err;
	int errnum = 0;

	listing->root = root;
	err = bino__subvol_list_fd(root_fd, tree_add_one, listing, &errnum);
	if (listing->err)
		return listing->err;
	errno = errnum;
	return err ? BINO_ERROR_SUBVOL_INFO_FAILED : BINO_OK;
}

/*
 * The root of the subvolume holding the audited directory: the directory
 * itself or its nearest ancestor with inode 256 on the same device (each
 * subvolume has a device number of its own, so an ancestor on another
 * device ends the search: ENOENT, the filesystem was mounted from a
 * directory inside a subvolume).  Allocated, or NULL with errno.
 */
static char *subvol_root_path(const struct plan_base *base)
{
	char *root = strdup(base->path), *slash;
	struct stat st = base->st;

	if (!root)
		return NULL;
	while (st.st_ino != SUBVOL_ROOT_INO) {
		slash = strrchr(root, '/');
		if (!slash || strcmp(root, "/") == 0)
			goto out_enoent;
		slash[slash == root ? 1 : 0] = '\0';
		if (lstat(root, &st) != 0)
			goto out_free;
		if (st.st_dev != base->st.st_dev)
			goto out_enoent;
	}
	return root;

out_enoent:
	errno = ENOENT;
out_free:
	free(root);
	return NULL;
}

/* The export's own subvolume, listed from its root. */
static enum bino_error tree_list_holding(struct tree_listing *listing)
{
	struct subvol_plan *sp = listing->sp;
	char *root = subvol_root_path(&sp->base);
	enum bino_error err;
	int fd;

	if (!root)
		return BINO_ERROR_OPEN_FAILED;
	fd = bino__resolve_no_symlinks(root, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		free(root);
		return BINO_ERROR_OPEN_FAILED;
	}
	err = tree_list(listing, root, fd);
	close_keep_errno(fd);
	free(root);
	return err;
}

/*
 * A subvolume of the filesystem mounted below the audited path, with those
 * below it, as a walk crossing into the mount meets them.  A mount whose
 * root cannot be listed (a directory, a deleted subvolume) adds nothing
 * below it, and neither does a subvolume mounted on the path its parent's
 * listing gave it (what a keeper leaves: every path below it was listed
 * already, and listing each of a thousand such mounts again would read
 * the root tree a thousand times).
 */
static enum bino_error tree_list_mount(struct tree_listing *listing,
				       const struct bino_mount *mount)
{
	struct subvol_plan *sp = listing->sp;
	const char *target = bino_mount_target(mount);
	uint64_t id = bino_mount_subvolid(mount);
	const struct plan_subvol *listed;
	int64_t owner = OWNER_UNKNOWN;
	enum bino_error err;
	int fd;

	if (strcmp(bino_mount_fstype(mount), "btrfs") != 0 ||
	    bino_mount_dev(mount) != bino_mount_dev(sp->filesystem) || !id)
		return BINO_OK;
	listed = subvol_plan_find(sp, id);
	if (listed && strcmp(listed->path, target) == 0)
		return BINO_OK;
	if (!listed && tree_reaches(sp, target, id, &owner) == TREE_REACHES) {
		err = subvol_plan_add(sp, target, id, owner,
				      tree_mounted(sp, listing->mounts, target, id),
				      true);
		if (err)
			return err;
	}
	fd = strlen(target) >= PATH_MAX ? -1 :
		bino__resolve_beneath(sp->base.fd, path_below(target, sp->base.path),
			     O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return BINO_OK;
	(void)tree_list(listing, target, fd);
	close(fd);
	return listing->err;
}

BINO_PUBLIC enum bino_error
bino_mountplan_add_subvols(struct bino_mountplan *plan,
			   const struct bino_mounts *mounts, const char *path)
{
	struct subvol_plan sp = { .base = { .fd = -1 }, .probe_fd = -1 };
	struct tree_listing listing = { .sp = &sp, .mounts = mounts };
	const struct bino_mount *const *below_mounts;
	enum bino_error err;
	char *options;
	size_t n, i;

	if (!plan || !mounts || !path || path[0] != '/')
		return BINO_ERROR_INVALID_ARGUMENT;
	tallies_clear(plan);
	sp.filesystem = bino__mounts_holding(mounts, path);
	if (!sp.filesystem) {
		errno = 0;
		return BINO_ERROR_NOT_FOUND;
	}
	if (strcmp(bino_mount_fstype(sp.filesystem), "btrfs") != 0)
		return BINO_OK; /* nothing a btrfs mount could fix */
	base_open(&sp.base, path);
	if (sp.base.fd < 0)
		return BINO_ERROR_OPEN_FAILED;
	err = fs_uuid_of(sp.base.fd, sp.uuid);
	if (err) {
		base_close(&sp.base);
		return err;
	}
	options = bino__mount_options_for_subvol(sp.filesystem);
	if (!options) {
		base_close(&sp.base);
		return BINO_ERROR_NO_MEMORY;
	}
	sp.options = options;
	sp.probe_fd = openat(sp.base.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC |
			     O_NONBLOCK);
	err = tree_list_holding(&listing);
	n = bino__mounts_below(mounts, path, &below_mounts);
	for (i = 0; !err && i < n; i++)
		err = tree_list_mount(&listing, below_mounts[i]);
	if (!err)
		err = plan_subvols(plan, &sp);
	plan->unreached += sp.unreached;
	subvol_plan_release(&sp);
	free(options);
	return err;
}

/* Whether mountinfo shows @mount's root as deleted. */
static bool mount_deleted(const struct bino_mount *mount)
{
	const char *root = bino_mount_root(mount);
	size_t len = strlen(root), suffix = strlen(DELETED_SUFFIX);

	return len >= suffix && strcmp(root + len - suffix, DELETED_SUFFIX) == 0;
}

static enum bino_error plan_add_stale(struct bino_mountplan *plan,
				      const struct plan_base *base,
				      const struct bino_mount *mount)
{
	struct bino_mountplan_step *step;
	const char *root = bino_mount_root(mount);
	size_t root_len = strlen(root) - strlen(DELETED_SUFFIX);

	if (plan_has(plan, BINO_MOUNTPLAN_UMOUNT, bino_mount_target(mount)))
		return BINO_OK;
	step = step_new(BINO_MOUNTPLAN_UMOUNT, base, bino_mount_target(mount));
	if (!step)
		return BINO_ERROR_NO_MEMORY;
	step->subvolid = bino_mount_subvolid(mount);
	step->mount_id = bino_mount_id(mount);
	step->source = strdup(bino_mount_source(mount));
	step->fs_path = strndup(root, root_len);
	if (!step->source || !step->fs_path) {
		step_free(step);
		return BINO_ERROR_NO_MEMORY;
	}
	return plan_append(plan, step);
}

BINO_PUBLIC enum bino_error bino_mountplan_add_stale(struct bino_mountplan *plan,
						     const struct bino_mounts *mounts,
						     const char *path)
{
	struct plan_base base = { .path = NULL, .fd = -1 };
	enum bino_error err = BINO_OK;
	size_t i;

	if (!plan || !mounts || !path || path[0] != '/')
		return BINO_ERROR_INVALID_ARGUMENT;
	for (i = 0; !err && i < bino_mounts_count(mounts); i++) {
		const struct bino_mount *mount = bino_mounts_get(mounts, i);

		if (strcmp(bino_mount_fstype(mount), "btrfs") != 0 ||
		    !bino__path_below(bino_mount_target(mount), path) ||
		    !mount_deleted(mount))
			continue;
		/* Opened only when there is something to unmount. */
		if (!base.path)
			base_open(&base, path);
		err = plan_add_stale(plan, &base, mount);
	}
	base_close(&base);
	return err;
}

BINO_PUBLIC size_t bino_mountplan_count(const struct bino_mountplan *plan)
{
	return plan ? plan->n_steps : 0;
}

BINO_PUBLIC size_t bino_mountplan_unreached(const struct bino_mountplan *plan)
{
	return plan ? plan->unreached : 0;
}

BINO_PUBLIC const struct bino_mountplan_step *
bino_mountplan_get(const struct bino_mountplan *plan, size_t index)
{
	return plan && index < plan->n_steps ? plan->steps[index] : NULL;
}

BINO_PUBLIC enum bino_mountplan_action
bino_mountplan_step_action(const struct bino_mountplan_step *step)
{
	return step ? step->action : 0;
}

BINO_PUBLIC const char *
bino_mountplan_step_path(const struct bino_mountplan_step *step)
{
	return step ? step->path : NULL;
}

BINO_PUBLIC const char *
bino_mountplan_step_source(const struct bino_mountplan_step *step)
{
	return step ? step->source : NULL;
}

BINO_PUBLIC const uint8_t *
bino_mountplan_step_fs_uuid(const struct bino_mountplan_step *step)
{
	return step && step->has_uuid ? step->uuid : NULL;
}

BINO_PUBLIC uint64_t
bino_mountplan_step_subvolid(const struct bino_mountplan_step *step)
{
	return step ? step->subvolid : 0;
}

BINO_PUBLIC const char *
bino_mountplan_step_options(const struct bino_mountplan_step *step)
{
	return step ? step->options : NULL;
}

BINO_PUBLIC enum bino_mountplan_skip
bino_mountplan_step_skip(const struct bino_mountplan_step *step)
{
	return step ? step->skip : 0;
}

BINO_PUBLIC int64_t
bino_mountplan_step_owner(const struct bino_mountplan_step *step)
{
	return step ? step->owner : 0;
}

BINO_PUBLIC const char *
bino_mountplan_step_fs_path(const struct bino_mountplan_step *step)
{
	return step ? step->fs_path : NULL;
}

BINO_PUBLIC int64_t
bino_mountplan_step_counted_as(const struct bino_mountplan_step *step)
{
	return step ? step->counted_as : 0;
}

BINO_PUBLIC size_t bino_mountplan_owner_count(const struct bino_mountplan *plan)
{
	return plan ? plan->n_tallies : 0;
}

BINO_PUBLIC int64_t bino_mountplan_owner_uid(const struct bino_mountplan *plan,
					     size_t index)
{
	return plan && index < plan->n_tallies ? plan->tally_order[index]->owner : 0;
}

BINO_PUBLIC size_t bino_mountplan_owner_mounts(const struct bino_mountplan *plan,
					       size_t index)
{
	return plan && index < plan->n_tallies ? plan->tally_order[index]->mounts : 0;
}

BINO_PUBLIC size_t bino_mountplan_user_mounts(const struct bino_mountplan *plan)
{
	return plan ? plan->user_mounts : 0;
}

/* ---- applying --------------------------------------------------------- */

/* The mount(8) options that are mount(2) flags (util-linux's Linux map). */
static const struct {
	const char *name;
	unsigned long set, clear;
} flag_options[] = {
	{ "ro", MS_RDONLY, 0 },
	{ "rw", 0, MS_RDONLY },
	{ "nosuid", MS_NOSUID, 0 },
	{ "suid", 0, MS_NOSUID },
	{ "nodev", MS_NODEV, 0 },
	{ "dev", 0, MS_NODEV },
	{ "noexec", MS_NOEXEC, 0 },
	{ "exec", 0, MS_NOEXEC },
	{ "sync", MS_SYNCHRONOUS, 0 },
	{ "async", 0, MS_SYNCHRONOUS },
	{ "dirsync", MS_DIRSYNC, 0 },
	{ "mand", MS_MANDLOCK, 0 },
	{ "nomand", 0, MS_MANDLOCK },
	{ "noatime", MS_NOATIME, MS_RELATIME | MS_STRICTATIME },
	{ "atime", 0, MS_NOATIME },
	{ "nodiratime", MS_NODIRATIME, 0 },
	{ "diratime", 0, MS_NODIRATIME },
	{ "relatime", MS_RELATIME, MS_NOATIME | MS_STRICTATIME },
	{ "norelatime", 0, MS_RELATIME },
	{ "strictatime", MS_STRICTATIME, MS_NOATIME | MS_RELATIME },
	{ "nostrictatime", 0, MS_STRICTATIME },
	{ "lazytime", MS_LAZYTIME, 0 },
	{ "nolazytime", 0, MS_LAZYTIME },
	{ "silent", MS_SILENT, 0 },
	{ "loud", 0, MS_SILENT },
	{ "defaults", 0, 0 },
};

/*
 * Split @options into mount(2) flags and the filesystem's own options
 * (into @data, at least as long as @options), later options winning.
 */
static void split_options(const char *options, unsigned long *flags, char *data)
{
	size_t len = 0, i;

	*flags = 0;
	data[0] = '\0';
	while (*options) {
		size_t n = strcspn(options, ",");

		for (i = 0; i < sizeof(flag_options) / sizeof(flag_options[0]); i++) {
			if (strlen(flag_options[i].name) == n &&
			    strncmp(flag_options[i].name, options, n) == 0)
				break;
		}
		if (i < sizeof(flag_options) / sizeof(flag_options[0])) {
			*flags &= ~flag_options[i].clear;
			*flags |= flag_options[i].set;
		} else if (n) {
			if (len)
				data[len++] = ',';
			memcpy(data + len, options, n);
			len += n;
			data[len] = '\0';
		}
		options += n;
		if (*options == ',')
			options++;
	}
}

/*
 * Open the audited directory @step lies below, which must be the one the
 * plan saw (ESTALE otherwise, or if the plan could not open it), then the mount point from it with @flags:
 * beneath it, through no symbolic link.  The descriptor, or -1 with errno.
 */
static int step_open(const struct bino_mountplan_step *step, int flags)
{
	struct stat st;
	int base_fd, fd;

	if (!step->has_base_id) {
		errno = ESTALE;
		return -1;
	}
	base_fd = bino__resolve_no_symlinks(step->base, O_PATH);
	if (base_fd < 0)
		return -1;
	if (fstat(base_fd, &st) != 0) {
		close_keep_errno(base_fd);
		return -1;
	}
	if (st.st_dev != step->base_dev || st.st_ino != step->base_ino) {
		close(base_fd);
		errno = ESTALE;
		return -1;
	}
	fd = bino__resolve_beneath(base_fd, path_below(step->path, step->base), flags);
	close_keep_errno(base_fd);
	return fd;
}

/*
 * Open the mount point of @step, which must be the root of the planned
 * subvolume itself: inode 256 of that subvolume ID, on the filesystem of
 * that UUID (another btrfs has the same IDs), owned as planned.  Never a
 * placeholder (inode 2), a directory inside it, or another subvolume.  The
 * descriptor, or -1 with errno (ESTALE when it is not that directory).
 */
static int step_open_subvol(const struct bino_mountplan_step *step)
{
	struct stat st;
	uint64_t subvolid;
	uint8_t uuid[16];
	int fd;

	fd = step_open(step, O_RDONLY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0)
		goto out_close;
	if (st.st_ino != SUBVOL_ROOT_INO || st.st_uid != step->owner ||
	    bino__subvolid_ioctl(fd, &subvolid) != 0 ||
	    subvolid != step->subvolid || bino__fs_uuid_fd(fd, uuid) != 0 ||
	    memcmp(uuid, step->uuid, sizeof(uuid)) != 0) {
		errno = ESTALE;
		goto out_close;
	}
	return fd;

out_close:
	close_keep_errno(fd);
	return -1;
}

/*
 * Open the mount point of an unmount @step, which must show the very mount
 * the plan read from mountinfo (its mount ID; ESTALE otherwise): an fd, or
 * -1 with errno, as openat(2).
 */
static int step_open_mount(const struct bino_mountplan_step *step)
{
	struct statx stx;
	int fd;

	fd = step_open(step, O_PATH);
	if (fd < 0)
		return -1;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_MNT_ID,
		  &stx) != 0)
		goto out_close;
	if (!(stx.stx_mask & STATX_MNT_ID) || stx.stx_mnt_id != step->mount_id) {
		errno = ESTALE;
		goto out_close;
	}
	return fd;

out_close:
	close_keep_errno(fd);
	return -1;
}

/* "/proc/self/fd/N": the verified directory itself, as a path. */
static void fd_path(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/*
 * Whether subvolume @id of the filesystem holding the open file @fd (not
 * O_PATH) no longer exists: the root tree has no ROOT_BACKREF item for it.
 * Btrfs removes it in the transaction that deletes the subvolume, long
 * before the cleaner drops the subvolume's tree.  False when it exists, and
 * when the tree cannot be searched (EPERM without CAP_SYS_ADMIN): nothing
 * is concluded then.
 */
static bool subvol_deleted(int fd, uint64_t id)
{
	struct btrfs_ioctl_search_args args = {
		.key = {
			.tree_id = BTRFS_ROOT_TREE_OBJECTID,
			.min_objectid = id, .max_objectid = id,
			.min_type = BTRFS_ROOT_BACKREF_KEY,
			.max_type = BTRFS_ROOT_BACKREF_KEY,
			.max_offset = UINT64_MAX, .max_transid = UINT64_MAX,
			.nr_items = 1,
		},
	};

	return ioctl(fd, BTRFS_IOC_TREE_SEARCH, &args) == 0 &&
	       args.key.nr_items == 0;
}

/*
 * Whether the subvolume of the mount @step was deleted, asked of the
 * audited directory the plan saw (its identity and filesystem UUID
 * checked): false when that cannot be told.
 */
static bool step_subvol_deleted(const struct bino_mountplan_step *step)
{
	struct stat st;
	uint8_t uuid[16];
	bool deleted = false;
	int fd;

	if (!step->has_base_id)
		return false;
	fd = bino__resolve_no_symlinks(step->base, O_RDONLY | O_DIRECTORY |
				       O_NONBLOCK);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && st.st_dev == step->base_dev &&
	    st.st_ino == step->base_ino && bino__fs_uuid_fd(fd, uuid) == 0 &&
	    memcmp(uuid, step->uuid, sizeof(uuid)) == 0)
		deleted = subvol_deleted(fd, step->subvolid);
	close(fd);
	return deleted;
}

/*
 * @err, with errno as it was, unless the subvolume of the mount @step was
 * deleted (ENOENT or ESTALE: its path gone or leading to something else,
 * a new subvolume of the same name among them): then
 * BINO_ERROR_SUBVOL_DELETED with ENOENT, nothing to mount.
 */
static enum bino_error step_gone_or(const struct bino_mountplan_step *step,
				    enum bino_error err)
{
	int saved = errno;

	if ((saved == ENOENT || saved == ESTALE) && step_subvol_deleted(step)) {
		errno = ENOENT;
		return BINO_ERROR_SUBVOL_DELETED;
	}
	errno = saved;
	return err;
}

static enum bino_error step_mount(const struct bino_mountplan_step *step)
{
	char target[64], *data;
	unsigned long flags;
	int fd, rc;

	fd = step_open_subvol(step);
	if (fd < 0)
		return step_gone_or(step, BINO_ERROR_OPEN_FAILED);
	data = malloc(strlen(step->options) + 1);
	if (!data) {
		close(fd);
		return BINO_ERROR_NO_MEMORY;
	}
	split_options(step->options, &flags, data);
	fd_path(target, sizeof(target), fd);
	rc = mount(step->source, target, "btrfs", flags, data);
	free(data);
	/*
	 * Deleted after it was opened: btrfs finds no subvolume of that ID,
	 * or the VFS no name for the directory (ENOENT either way).
	 */
	if (rc != 0 && errno == ENOENT && subvol_deleted(fd, step->subvolid)) {
		close(fd);
		errno = ENOENT;
		return BINO_ERROR_SUBVOL_DELETED;
	}
	close_keep_errno(fd);
	return rc == 0 ? BINO_OK : BINO_ERROR_MOUNT_FAILED;
}

static enum bino_error step_umount(const struct bino_mountplan_step *step)
{
	char target[64];
	int fd, rc;

	fd = step_open_mount(step);
	if (fd < 0)
		return BINO_ERROR_OPEN_FAILED;
	fd_path(target, sizeof(target), fd);
	/*
	 * The magic link is followed to the descriptor's mount (so no
	 * UMOUNT_NOFOLLOW, which would look at the link itself).  Detached:
	 * what it shows is deleted already, a process working inside must
	 * not keep it in the namespace, and our own descriptor holds it.
	 */
	rc = umount2(target, MNT_DETACH);
	close_keep_errno(fd);
	return rc == 0 ? BINO_OK : BINO_ERROR_UMOUNT_FAILED;
}

BINO_PUBLIC enum bino_error
bino_mountplan_step_apply(const struct bino_mountplan_step *step)
{
	if (!step)
		return BINO_ERROR_INVALID_ARGUMENT;
	switch (step->action) {
	case BINO_MOUNTPLAN_MOUNT:
		return step_mount(step);
	case BINO_MOUNTPLAN_UMOUNT:
		return step_umount(step);
	case BINO_MOUNTPLAN_SKIP:
		break;
	}
	return BINO_OK;
}
